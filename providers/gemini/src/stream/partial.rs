//! Vertex AI's streamed function-call arguments (`partialArgs`) written back as argument text.
//!
//! Each `PartialArg` names the value it carries with an RFC 9535 JSON path (`$.a.b[0]`,
//! `$['a b']`) and, for a string, may say more of the same string follows (`willContinue`).
//! The model writes its arguments in document order, so the pieces are turned into the JSON
//! text they stand for as they arrive (containers opened and closed as the paths move on) and
//! that text goes through the same assembler, with the same early checks, as every other
//! provider's argument deltas. A path that goes back into a value already written, or that uses
//! anything but names and indexes, is refused with an error naming it.

use std::collections::HashSet;

use serde_json::Value;

/// One step of a path: a member name or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Step {
    Key(String),
    Index(usize),
}

/// Reads the normalized subset of RFC 9535 that names one value: `$` then `.name`,
/// `['name']` / `["name"]` and `[index]` steps. Wildcards, slices, filters, negative indexes and
/// descendant steps select sets of values, not one, and are refused, as is a path deeper than
/// `max_depth`.
pub(super) fn parse_path(path: &str, max_depth: usize) -> Result<Vec<Step>, String> {
    let Some(mut rest) = path.strip_prefix('$') else {
        return Err("must start with `$`".to_owned());
    };
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if steps.len() == max_depth {
            return Err(format!("is deeper than {max_depth} steps"));
        }
        let at = path.len() - rest.len();
        if let Some(after) = rest.strip_prefix('.') {
            let end = after
                .char_indices()
                .find(|&(_, c)| !(c == '_' || c.is_alphanumeric() || !c.is_ascii()))
                .map_or(after.len(), |(i, _)| i);
            let name = &after[..end];
            if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                return Err(format!("has no member name after the `.` at byte {at}"));
            }
            steps.push(Step::Key(name.to_owned()));
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let (step, used) = bracket(after).map_err(|m| format!("{m} at byte {}", at + 1))?;
            let Some(tail) = after[used..].strip_prefix(']') else {
                return Err(format!("has no `]` closing the `[` at byte {at}"));
            };
            steps.push(step);
            rest = tail;
        } else {
            return Err(format!("has an unexpected character at byte {at}"));
        }
    }
    Ok(steps)
}

/// The step inside `[...]` and the bytes it used (the `]` not included).
fn bracket(text: &str) -> Result<(Step, usize), String> {
    match text.chars().next() {
        Some(q @ ('\'' | '"')) => {
            let mut name = String::new();
            let mut chars = text.char_indices().skip(1);
            while let Some((i, c)) = chars.next() {
                match c {
                    c if c == q => return Ok((Step::Key(name), i + 1)),
                    '\\' => match chars.next().map(|(_, e)| e) {
                        Some(e @ ('\\' | '/' | '\'' | '"')) => name.push(e),
                        Some('b') => name.push('\u{8}'),
                        Some('f') => name.push('\u{c}'),
                        Some('n') => name.push('\n'),
                        Some('r') => name.push('\r'),
                        Some('t') => name.push('\t'),
                        Some('u') => {
                            let hex: String = chars.by_ref().take(4).map(|(_, h)| h).collect();
                            let c = u32::from_str_radix(&hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or("has an escape `\\u` that is not one character")?;
                            name.push(c);
                        }
                        _ => return Err("has an unknown escape in a quoted name".to_owned()),
                    },
                    c => name.push(c),
                }
            }
            Err("has an unclosed quoted name".to_owned())
        }
        _ => {
            let end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
            let digits = &text[..end];
            if digits.is_empty() {
                return Err(
                    "selects more than one value (only names and indexes are read)".to_owned()
                );
            }
            if digits.len() > 1 && digits.starts_with('0') {
                return Err("has an index with a leading zero".to_owned());
            }
            let index = digits.parse().map_err(|_| "has an index too large".to_owned())?;
            Ok((Step::Index(index), end))
        }
    }
}

/// A container still open in the text.
#[derive(Debug)]
enum Frame {
    Object { keys: HashSet<String> },
    Array { len: usize },
}

/// The JSON text of one call's arguments, written as its pieces arrive.
#[derive(Debug, Default)]
pub(super) struct ArgsText {
    /// The open containers, the arguments' object first (empty before the first piece).
    frames: Vec<Frame>,
    /// The step into each open container but the first (`steps[i]` leads into `frames[i + 1]`).
    steps: Vec<Step>,
    /// The path of the string still open (its closing quote not written), if one is.
    open_string: Option<Vec<Step>>,
}

impl ArgsText {
    /// Whether the string at `path` is open (its last piece said more would follow).
    pub(super) fn is_open_string(&self, path: &[Step]) -> bool {
        self.open_string.as_deref() == Some(path)
    }

    /// The text that writes `value` at `path` (`continues`: more of this string follows).
    pub(super) fn write(
        &mut self,
        path: &[Step],
        value: &Value,
        continues: bool,
    ) -> Result<String, String> {
        let mut out = String::new();
        if let Some(open) = self.open_string.take() {
            if open == path {
                let Value::String(s) = value else {
                    return Err("continues a string with a value that is not a string".to_owned());
                };
                push_escaped(&mut out, s);
                if continues {
                    self.open_string = Some(open);
                } else {
                    out.push('"');
                }
                return Ok(out);
            }
            // A new path ends the string even if its last piece said more would follow.
            out.push('"');
        }
        let Some((_, parents)) = path.split_last() else {
            return Err("names the arguments themselves, not a value in them".to_owned());
        };
        if self.frames.is_empty() {
            out.push('{');
            self.frames.push(Frame::Object { keys: HashSet::new() });
        }
        let common = self.steps.iter().zip(parents).take_while(|(a, b)| a == b).count();
        while self.frames.len() > common + 1 {
            self.close_one(&mut out);
        }
        for (i, step) in path.iter().enumerate().skip(common) {
            self.member(step, &mut out)?;
            if i + 1 < path.len() {
                let (open, frame) = match path[i + 1] {
                    Step::Key(_) => ('{', Frame::Object { keys: HashSet::new() }),
                    Step::Index(_) => ('[', Frame::Array { len: 0 }),
                };
                out.push(open);
                self.frames.push(frame);
                self.steps.push(step.clone());
            }
        }
        match value {
            Value::String(s) => {
                out.push('"');
                push_escaped(&mut out, s);
                if continues {
                    self.open_string = Some(path.to_vec());
                } else {
                    out.push('"');
                }
            }
            _ if continues => {
                return Err("says more follows for a value that is not a string".to_owned());
            }
            v => out.push_str(&v.to_string()),
        }
        Ok(out)
    }

    /// Writes the start of the member `step` of the innermost open container.
    fn member(&mut self, step: &Step, out: &mut String) -> Result<(), String> {
        let Some(frame) = self.frames.last_mut() else {
            return Err("has no container to write into".to_owned());
        };
        match (frame, step) {
            (Frame::Object { keys }, Step::Key(k)) => {
                if !keys.is_empty() {
                    out.push(',');
                }
                if !keys.insert(k.clone()) {
                    return Err(format!("gives the member `{k}` a second time"));
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
            }
            (Frame::Array { len }, Step::Index(i)) => {
                if *i != *len {
                    return Err(format!("writes index {i} where index {len} comes next"));
                }
                if *len > 0 {
                    out.push(',');
                }
                *len += 1;
            }
            (Frame::Object { .. }, Step::Index(i)) => {
                return Err(format!("indexes with [{i}] a value that is an object"));
            }
            (Frame::Array { .. }, Step::Key(k)) => {
                return Err(format!("names the member `{k}` of a value that is an array"));
            }
        }
        Ok(())
    }

    fn close_one(&mut self, out: &mut String) {
        match self.frames.pop() {
            Some(Frame::Object { .. }) => out.push('}'),
            Some(Frame::Array { .. }) => out.push(']'),
            None => {}
        }
        self.steps.pop();
    }

    /// The text that closes everything still open (empty when nothing was written).
    pub(super) fn close(&mut self) -> String {
        let mut out = String::new();
        if self.open_string.take().is_some() {
            out.push('"');
        }
        while !self.frames.is_empty() {
            self.close_one(&mut out);
        }
        out
    }
}

/// `s` as the inside of a JSON string.
fn push_escaped(out: &mut String, s: &str) {
    let quoted = Value::String(s.to_owned()).to_string();
    out.push_str(&quoted[1..quoted.len() - 1]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(k: &str) -> Step {
        Step::Key(k.to_owned())
    }

    #[test]
    fn paths_of_names_and_indexes_are_read_and_the_rest_refused() {
        assert_eq!(
            parse_path("$.foo.bar[0].data", 8),
            Ok(vec![key("foo"), key("bar"), Step::Index(0), key("data")])
        );
        assert_eq!(
            parse_path(r#"$['a b']["c\"d"][12]"#, 8),
            Ok(vec![key("a b"), key("c\"d"), Step::Index(12)])
        );
        assert_eq!(parse_path("$.été", 8), Ok(vec![key("été")]));
        let refused = [
            ("location", "must start with `$`"),
            ("$..a", "has no member name after the `.` at byte 1"),
            ("$.a[*]", "selects more than one value (only names and indexes are read) at byte 4"),
            ("$.a[-1]", "selects more than one value (only names and indexes are read) at byte 4"),
            ("$.a[1:2]", "has no `]` closing the `[` at byte 3"),
            ("$.a[01]", "has an index with a leading zero at byte 4"),
            ("$['a", "has an unclosed quoted name at byte 2"),
            ("$.a b", "has an unexpected character at byte 3"),
            ("$.a.b.c", "is deeper than 2 steps"),
        ];
        for (path, message) in refused {
            assert_eq!(parse_path(path, 2), Err(message.to_owned()), "{path}");
        }
    }

    #[test]
    fn pieces_become_the_text_of_the_object_they_describe() {
        let mut text = ArgsText::default();
        let mut out = String::new();
        let pieces = [
            (vec![key("location")], json!("Bos"), true),
            (vec![key("location")], json!("ton \"MA\""), false),
            (vec![key("days"), Step::Index(0)], json!(1), false),
            (vec![key("days"), Step::Index(1)], json!(2.5), false),
            (vec![key("opts"), key("deep"), key("on")], json!(true), false),
            (vec![key("opts"), key("none")], json!(null), false),
            (vec![key("note")], json!("open"), true),
        ];
        for (path, value, continues) in pieces {
            out.push_str(&text.write(&path, &value, continues).unwrap());
        }
        out.push_str(&text.close());
        assert_eq!(
            out,
            r#"{"location":"Boston \"MA\"","days":[1,2.5],"opts":{"deep":{"on":true},"none":null},"note":"open"}"#
        );
    }

    #[test]
    fn going_back_or_changing_shape_is_refused() {
        let written = || {
            let mut text = ArgsText::default();
            text.write(&[key("a")], &json!(1), false).unwrap();
            text.write(&[key("b"), Step::Index(0)], &json!(1), false).unwrap();
            text
        };
        let cases = [
            (vec![key("a")], "gives the member `a` a second time"),
            (vec![key("b"), Step::Index(3)], "writes index 3 where index 1 comes next"),
            (vec![key("b"), key("x")], "names the member `x` of a value that is an array"),
            (vec![Step::Index(0)], "indexes with [0] a value that is an object"),
            (vec![], "names the arguments themselves, not a value in them"),
        ];
        for (path, message) in cases {
            assert_eq!(
                written().write(&path, &json!(1), false),
                Err(message.to_owned()),
                "{path:?}"
            );
        }
        assert_eq!(
            written().write(&[key("c")], &json!(1), true),
            Err("says more follows for a value that is not a string".to_owned())
        );
    }
}
