//! [`NameRule`]: a provider's rule for tool and property names, checked while rendering.

use std::hash::{Hash, Hasher};

/// A provider's name rule (tool or property names): allowed bytes, allowed first byte, maximum
/// length.
///
/// Two rules are equal when their patterns and maximum lengths are: the pattern names the rule.
#[derive(Clone, Copy, Debug)]
pub struct NameRule {
    /// The rule as a regular expression, for messages.
    pub pattern: &'static str,
    /// Maximum length in bytes.
    pub max_len: usize,
    /// Whether a byte may appear in the name.
    pub allowed: fn(u8) -> bool,
    /// Whether a byte may start the name.
    pub first: fn(u8) -> bool,
}

impl PartialEq for NameRule {
    fn eq(&self, other: &Self) -> bool {
        self.pattern == other.pattern && self.max_len == other.max_len
    }
}

impl Eq for NameRule {}

impl Hash for NameRule {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.pattern.hash(state);
        self.max_len.hash(state);
    }
}

fn word_or_dash(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

impl NameRule {
    /// `^[a-zA-Z0-9_-]{1,64}$`: OpenAI and the OpenAI-compatible providers, Bedrock.
    pub const COMMON_64: NameRule = NameRule {
        pattern: "^[a-zA-Z0-9_-]{1,64}$",
        max_len: 64,
        allowed: word_or_dash,
        first: word_or_dash,
    };

    /// `^[a-zA-Z0-9_-]{1,128}$`: Anthropic.
    pub const COMMON_128: NameRule = NameRule {
        pattern: "^[a-zA-Z0-9_-]{1,128}$",
        max_len: 128,
        allowed: word_or_dash,
        first: word_or_dash,
    };

    /// Checks `name`; the error says what is wrong.
    ///
    /// # Errors
    ///
    /// A sentence naming the rule and the fault.
    pub fn check(&self, name: &str) -> Result<(), String> {
        let bytes = name.as_bytes();
        if bytes.is_empty() {
            return Err(format!("the name is empty; it must match {}", self.pattern));
        }
        if bytes.len() > self.max_len {
            return Err(format!(
                "the name is {} characters long; {} allows at most {}",
                bytes.len(),
                self.pattern,
                self.max_len
            ));
        }
        if !(self.first)(bytes[0]) {
            return Err(format!(
                "the name starts with {:?}, which {} does not allow",
                name.chars().next().unwrap_or('?'),
                self.pattern
            ));
        }
        if let Some(at) = bytes.iter().position(|b| !(self.allowed)(*b)) {
            return Err(format!(
                "the name has the character {:?} at byte {at}, which {} does not allow",
                name[at..].chars().next().unwrap_or('?'),
                self.pattern
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_rule_names_the_fault() {
        let err = NameRule::COMMON_64.check("a.b").unwrap_err();
        assert!(err.contains("'.'") && err.contains("byte 1"), "{err}");
        assert!(NameRule::COMMON_128.check(&"a".repeat(128)).is_ok());
        assert!(NameRule::COMMON_128.check(&"a".repeat(129)).is_err());
    }
}
