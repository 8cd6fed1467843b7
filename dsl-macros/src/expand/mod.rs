//! Code generation from checked IR: `tool` for `#[tool]`, `#[tools]` and `#[derive(Tool)]`,
//! `schema` for `#[derive(ToolSchema)]`. Generated code reaches the runtime only through
//! `<crate>::__private`, aliased as `__p` inside `const _: () = { ... };`.

pub(crate) mod schema;
pub(crate) mod tool;

use proc_macro2::{Literal as Lit, TokenStream};
use quote::quote;
use syn::Path;

use crate::attr::Value;
use crate::packed_keys as keys;

/// The path of the `tooldef` crate: `::tooldef` or the `crate = path` override.
pub(crate) fn krate(path: Option<&Path>) -> TokenStream {
    match path {
        Some(p) => quote!(#p),
        None => quote!(::tooldef),
    }
}

/// `__p::Literal::...` for a literal value.
pub(crate) fn literal(v: &Value) -> TokenStream {
    match v {
        Value::Str(s) => quote!(__p::Literal::str(#s)),
        Value::Int(i) => {
            let i = Lit::i64_suffixed(*i as i64);
            quote!(__p::Literal::Int(#i))
        }
        Value::Float(f) => {
            let f = Lit::f64_suffixed(*f);
            quote!(__p::Literal::Float(#f))
        }
        Value::Bool(b) => quote!(__p::Literal::Bool(#b)),
    }
}

/// `__p::Some(x)` or `__p::None`.
pub(crate) fn opt(v: Option<TokenStream>) -> TokenStream {
    match v {
        Some(t) => quote!(__p::Some(#t)),
        None => quote!(__p::None),
    }
}

/// Appends one record of a packed table: `<key><len>:<value>`. The format is documented, and
/// read, in the runtime crate (`tool_schema/packed.rs`); the two crates are released together.
pub(crate) fn record(out: &mut String, key: u8, value: &str) {
    use std::fmt::Write as _;
    let _ = write!(out, "{}{}:{value}", char::from(key), value.len());
}

/// A literal as a packed value: its JSON type's letter, then its text.
pub(crate) fn packed_literal(v: &Value) -> String {
    match v {
        Value::Str(s) => format!("{}{s}", char::from(keys::LIT_STR)),
        Value::Int(i) => format!("{}{}", char::from(keys::LIT_INT), *i as i64),
        Value::Float(f) => format!("{}{f}", char::from(keys::LIT_FLOAT)),
        Value::Bool(b) => format!("{}{b}", char::from(keys::LIT_BOOL)),
    }
}

/// The keys of one parameter (or field) that a caller sets, packed after its name.
#[derive(Default)]
pub(crate) struct Spec {
    pub(crate) description: Option<String>,
    pub(crate) default: Option<String>,
    pub(crate) examples: Vec<String>,
    pub(crate) minimum: Option<String>,
    pub(crate) maximum: Option<String>,
    pub(crate) min_length: Option<u64>,
    pub(crate) max_length: Option<u64>,
    pub(crate) pattern: Option<String>,
    pub(crate) format: Option<String>,
    pub(crate) one_of: Vec<String>,
    pub(crate) flatten: bool,
}

impl Spec {
    /// Appends the parameter's records to a packed table: its name, then each key that is set.
    pub(crate) fn pack(&self, out: &mut String, name: &str) {
        record(out, keys::PARAM, name);
        let texts = [
            (keys::DOC, &self.description),
            (keys::DEFAULT, &self.default),
            (keys::MINIMUM, &self.minimum),
            (keys::MAXIMUM, &self.maximum),
            (keys::PATTERN, &self.pattern),
            (keys::FORMAT, &self.format),
        ];
        for (key, value) in texts {
            if let Some(v) = value {
                record(out, key, v);
            }
        }
        for (key, n) in [(keys::MIN_LENGTH, self.min_length), (keys::MAX_LENGTH, self.max_length)] {
            if let Some(n) = n {
                record(out, key, &n.to_string());
            }
        }
        for e in &self.examples {
            record(out, keys::EXAMPLE, e);
        }
        for v in &self.one_of {
            record(out, keys::ONE_OF, v);
        }
        if self.flatten {
            record(out, keys::FLATTEN, "");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_carry_their_byte_length() {
        let mut out = String::new();
        record(&mut out, keys::DOC, "é: 12");
        record(&mut out, keys::FLATTEN, "");
        assert_eq!(out, "d6:\u{e9}: 12F0:");
    }

    #[test]
    fn a_spec_packs_every_key_it_sets() {
        let spec = Spec {
            description: Some("Unit".into()),
            default: Some(packed_literal(&Value::Str("c".into()))),
            examples: vec![packed_literal(&Value::Float(0.5)), packed_literal(&Value::Bool(true))],
            minimum: Some(packed_literal(&Value::Int(-3))),
            max_length: Some(8),
            one_of: vec!["c".into(), "f".into()],
            flatten: true,
            ..Spec::default()
        };
        let mut out = String::new();
        spec.pack(&mut out, "unit");
        assert_eq!(out, "p4:unitd4:Unit=2:sc<3:i-3L1:8e4:f0.5e5:btrueo1:co1:fF0:");
    }
}
