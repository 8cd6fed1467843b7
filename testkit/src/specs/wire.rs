//! Small helpers shared by the hand-written spec walkers: JSON pointers, value previews and the
//! text encodings (base64, durations, decimal integers) that travel as JSON strings.

use serde_json::Value;

/// `parent` extended by one reference token, escaped per RFC 6901 by `tooldef`'s escaper (the
/// walkers keep pointers as text because that is what their messages hold).
pub(crate) fn child(parent: &str, token: &str) -> String {
    format!("{parent}/{}", tooldef::pointer::escape(token))
}

/// `parent` extended by an array index.
pub(crate) fn index(parent: &str, i: usize) -> String {
    format!("{parent}/{i}")
}

/// The JSON kind of a value, as used in messages.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A short rendering of a value for messages (long values are cut).
pub(crate) fn preview(value: &Value) -> String {
    const MAX: usize = 60;
    let text = value.to_string();
    if text.chars().count() <= MAX {
        text
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

/// Whether `text` is base64 (standard or URL-safe alphabet, padding optional but well placed).
pub(crate) fn is_base64(text: &str) -> bool {
    let body = text.trim_end_matches('=');
    let padding = text.len() - body.len();
    if padding > 2 || (padding > 0 && !text.len().is_multiple_of(4)) || body.len() % 4 == 1 {
        return false;
    }
    body.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_'))
}

/// Whether `text` is a protobuf JSON duration such as `"1.5s"` or `"-3s"`.
pub(crate) fn is_duration(text: &str) -> bool {
    let Some(number) = text.strip_suffix('s') else {
        return false;
    };
    let number = number.strip_prefix('-').unwrap_or(number);
    let (whole, fraction) = match number.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (number, None),
    };
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction
            .is_none_or(|f| (1..=9).contains(&f.len()) && f.bytes().all(|b| b.is_ascii_digit()))
}

/// The integral value of a JSON number (`1` or `1.0`), if it has one.
pub(crate) fn integral(value: &Value) -> Option<i128> {
    let n = value.as_number()?;
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = n.as_u64() {
        return Some(i128::from(u));
    }
    let f = n.as_f64()?;
    // 2^63 bounds every integer kind checked here except u64, whose top is checked separately.
    #[allow(clippy::cast_possible_truncation)]
    (f.fract() == 0.0 && f.abs() < 1.9e19).then_some(f as i128)
}

/// An integer carried either as a JSON number or as a decimal string (64-bit protobuf / int64 format).
pub(crate) fn integral_or_decimal_string(value: &Value) -> Option<i128> {
    match value {
        Value::String(text) => {
            let digits = text.strip_prefix('-').unwrap_or(text);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            text.parse().ok()
        }
        other => integral(other),
    }
}

/// Whether a value is a JSON number or one of the special float strings protobuf JSON allows.
pub(crate) fn is_float(value: &Value) -> bool {
    value.is_number() || matches!(value.as_str(), Some("NaN" | "Infinity" | "-Infinity"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_escape_tokens() {
        assert_eq!(child("", "a/b~c"), "/a~1b~0c");
        assert_eq!(index(&child("/x", "y"), 3), "/x/y/3");
    }

    #[test]
    fn base64_text() {
        for good in ["", "YQ==", "YWI=", "YWJj", "YWJjZA", "-_-_"] {
            assert!(is_base64(good), "{good}");
        }
        for bad in ["Y", "YQ=", "Y===", "YQ==YQ==", "a b=", "é"] {
            assert!(!is_base64(bad), "{bad}");
        }
    }

    #[test]
    fn durations() {
        for good in ["1s", "1.5s", "-3s", "0.000000001s"] {
            assert!(is_duration(good), "{good}");
        }
        for bad in ["1", "s", "1.s", "1.5", "1m", "0.0000000001s", "+1s"] {
            assert!(!is_duration(bad), "{bad}");
        }
    }

    #[test]
    fn integers() {
        assert_eq!(integral(&json!(3)), Some(3));
        assert_eq!(integral(&json!(3.0)), Some(3));
        assert_eq!(integral(&json!(3.5)), None);
        assert_eq!(integral(&json!("3")), None);
        assert_eq!(integral_or_decimal_string(&json!("-42")), Some(-42));
        assert_eq!(integral_or_decimal_string(&json!("4x")), None);
        assert_eq!(integral_or_decimal_string(&json!("")), None);
        assert_eq!(integral_or_decimal_string(&json!(u64::MAX)), Some(i128::from(u64::MAX)));
    }
}
