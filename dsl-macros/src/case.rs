//! serde's `rename_all` case styles, applied exactly as serde applies them: variant names are
//! read as `PascalCase`, field names as `snake_case`.

/// A `rename_all` style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    pub(crate) fn parse(s: &str) -> Option<RenameRule> {
        Some(match s {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// A variant name (`PascalCase` in Rust) in this style.
    pub(crate) fn variant(self, name: &str) -> String {
        match self {
            RenameRule::Pascal => name.to_owned(),
            RenameRule::Lower => name.to_ascii_lowercase(),
            RenameRule::Upper => name.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut c = name.chars();
                c.next()
                    .map(|f| f.to_ascii_lowercase().to_string() + c.as_str())
                    .unwrap_or_default()
            }
            RenameRule::Snake => snake(name),
            RenameRule::ScreamingSnake => snake(name).to_ascii_uppercase(),
            RenameRule::Kebab => snake(name).replace('_', "-"),
            RenameRule::ScreamingKebab => snake(name).to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// A field name (`snake_case` in Rust) in this style.
    pub(crate) fn field(self, name: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => name.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => name.to_ascii_uppercase(),
            RenameRule::Pascal => pascal(name),
            RenameRule::Camel => {
                let p = pascal(name);
                let mut c = p.chars();
                c.next()
                    .map(|f| f.to_ascii_lowercase().to_string() + c.as_str())
                    .unwrap_or_default()
            }
            RenameRule::Kebab => name.replace('_', "-"),
            RenameRule::ScreamingKebab => name.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// `PascalCase` to `snake_case`, as serde does it (an underscore before every inner capital).
pub(crate) fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, ch) in name.char_indices() {
        if i > 0 && ch.is_uppercase() {
            out.push('_');
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}

/// `snake_case` to `PascalCase`, as serde does it.
pub(crate) fn pascal(name: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for ch in name.chars() {
        if ch == '_' {
            upper = true;
        } else if upper {
            out.push(ch.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_follow_serde() {
        let cases = [
            ("lowercase", "verylongvariant"),
            ("UPPERCASE", "VERYLONGVARIANT"),
            ("PascalCase", "VeryLongVariant"),
            ("camelCase", "veryLongVariant"),
            ("snake_case", "very_long_variant"),
            ("SCREAMING_SNAKE_CASE", "VERY_LONG_VARIANT"),
            ("kebab-case", "very-long-variant"),
            ("SCREAMING-KEBAB-CASE", "VERY-LONG-VARIANT"),
        ];
        for (rule, want) in cases {
            assert_eq!(RenameRule::parse(rule).unwrap().variant("VeryLongVariant"), want);
        }
    }

    #[test]
    fn fields_follow_serde() {
        let cases = [
            ("lowercase", "very_long_field"),
            ("UPPERCASE", "VERY_LONG_FIELD"),
            ("PascalCase", "VeryLongField"),
            ("camelCase", "veryLongField"),
            ("snake_case", "very_long_field"),
            ("SCREAMING_SNAKE_CASE", "VERY_LONG_FIELD"),
            ("kebab-case", "very-long-field"),
            ("SCREAMING-KEBAB-CASE", "VERY-LONG-FIELD"),
        ];
        for (rule, want) in cases {
            assert_eq!(RenameRule::parse(rule).unwrap().field("very_long_field"), want);
        }
        assert!(RenameRule::parse("Title Case").is_none());
    }
}
