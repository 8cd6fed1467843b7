//! The keyword tables of import: annotations dropped with a note, keywords the IR cannot type
//! (kept verbatim), and which constraint keywords belong to which type.

/// Annotation keywords the IR has no place for: dropped with a note.
pub(super) const DROPPED_ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "example",
    "discriminator",
    "nullable",
];

/// Keywords that change what is valid and that the IR cannot type: kept verbatim, with why.
pub(super) const KEPT: &[(&str, &str)] = &[
    ("not", "the IR has no negation"),
    ("if", "the IR has no conditional schemas"),
    ("then", "the IR has no conditional schemas"),
    ("else", "the IR has no conditional schemas"),
    (
        "patternProperties",
        "the IR names every property; keys matched by pattern are not expressible",
    ),
    ("propertyNames", "the IR does not constrain property names"),
    ("dependentRequired", "the IR has no dependencies between properties"),
    ("dependentSchemas", "the IR has no dependencies between properties"),
    ("dependencies", "the IR has no dependencies between properties"),
    ("minProperties", "the IR does not count properties"),
    ("maxProperties", "the IR does not count properties"),
    ("unevaluatedProperties", "the IR has no evaluation tracking"),
    ("unevaluatedItems", "the IR has no item evaluation tracking"),
    ("prefixItems", "the IR has no tuples"),
    ("additionalItems", "the IR has no tuples"),
    ("contains", "the IR has no `contains`"),
    ("minContains", "the IR has no `contains`"),
    ("maxContains", "the IR has no `contains`"),
    ("$dynamicRef", "dynamic references are not supported"),
    ("$recursiveRef", "dynamic references are not supported"),
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Family {
    String,
    Number,
    Array,
    Object,
}

pub(super) fn family_of(keyword: &str) -> Option<Family> {
    Some(match keyword {
        "format" | "pattern" | "minLength" | "maxLength" => Family::String,
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            Family::Number
        }
        "items" | "minItems" | "maxItems" | "uniqueItems" => Family::Array,
        "properties" | "required" | "additionalProperties" => Family::Object,
        _ => return None,
    })
}

pub(super) const TYPE_NAMES: &[&str] =
    &["string", "integer", "number", "boolean", "null", "array", "object"];

/// How many schema objects one `allOf` tree may merge (guards against pathological input).
pub(super) const MAX_ALL_OF_PARTS: usize = 1024;

pub(super) const KEPT_ANNOTATIONS: &[&str] = &["title", "description", "default", "examples"];

/// Keywords the IR types that constrain values (the rest only describe, are kept verbatim, or
/// are unknown and dropped).
pub(super) fn is_constraint(keyword: &str) -> bool {
    family_of(keyword).is_some()
        || ["type", "enum", "const", "anyOf", "oneOf", "$ref", "allOf"].contains(&keyword)
}

/// Why `keyword` is kept verbatim, when it is one of [`KEPT`].
pub(super) fn kept_reason(keyword: &str) -> Option<&'static str> {
    KEPT.iter().find(|(k, _)| *k == keyword).map(|(_, why)| *why)
}

#[cfg(test)]
mod tests {
    /// The module docs of `json_schema` say, per kept keyword, whether dispatch enforces it:
    /// every keyword import keeps verbatim has its row there, so a keyword added to [`KEPT`]
    /// cannot leave users guessing.
    #[test]
    fn every_kept_keyword_has_its_row_in_the_dispatch_table() {
        let docs = include_str!("mod.rs");
        let rows: Vec<&str> = docs
            .lines()
            .skip_while(|l| !l.starts_with("//! | keyword | dispatch |"))
            .take_while(|l| l.starts_with("//! |"))
            .collect();
        let missing: Vec<&str> = super::KEPT
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| {
                !rows.iter().any(|row| {
                    let keywords = row.split('|').nth(1).unwrap_or_default();
                    keywords.contains(&format!("`{k}`"))
                })
            })
            .collect();
        assert_eq!(missing, Vec::<&str>::new());
    }
}
