//! Code generation from checked IR: `tool` for `#[tool]`, `#[tools]` and `#[derive(Tool)]`,
//! `schema` for `#[derive(ToolSchema)]`. Generated code reaches the runtime only through
//! `<crate>::__private`, aliased as `__p` inside `const _: () = { ... };`.

pub(crate) mod schema;
pub(crate) mod tool;

use proc_macro2::{Literal as Lit, TokenStream};
use quote::quote;
use syn::Path;

use crate::attr::Value;

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

/// The fields of a `__p::ParamSpec` that a caller sets; the rest are empty.
#[derive(Default)]
pub(crate) struct Spec {
    pub(crate) description: Option<String>,
    pub(crate) default: Option<TokenStream>,
    pub(crate) examples: Vec<TokenStream>,
    pub(crate) minimum: Option<TokenStream>,
    pub(crate) maximum: Option<TokenStream>,
    pub(crate) min_length: Option<u64>,
    pub(crate) max_length: Option<u64>,
    pub(crate) pattern: Option<String>,
    pub(crate) format: Option<String>,
    pub(crate) one_of: Vec<String>,
    pub(crate) flatten: bool,
}

impl Spec {
    /// A `__p::ParamSpec { ... }` expression (usable in a `static`) naming only the keys that
    /// are set; the rest come from `__p::ParamSpec::NONE`.
    pub(crate) fn render(
        &self,
        name: &str,
        schema: TokenStream,
        optional: TokenStream,
    ) -> TokenStream {
        let mut keys = quote!(name: #name, schema: #schema, optional: #optional,);
        if let Some(d) = &self.description {
            keys.extend(quote!(description: __p::Some(#d),));
        }
        if let Some(d) = &self.default {
            keys.extend(quote!(default: __p::Some(#d),));
        }
        if !self.examples.is_empty() {
            let examples = &self.examples;
            keys.extend(quote!(examples: &[#(#examples),*],));
        }
        if let Some(m) = &self.minimum {
            keys.extend(quote!(minimum: __p::Some(#m),));
        }
        if let Some(m) = &self.maximum {
            keys.extend(quote!(maximum: __p::Some(#m),));
        }
        if let Some(n) = self.min_length {
            keys.extend(quote!(min_length: __p::Some(#n),));
        }
        if let Some(n) = self.max_length {
            keys.extend(quote!(max_length: __p::Some(#n),));
        }
        if let Some(p) = &self.pattern {
            keys.extend(quote!(pattern: __p::Some(#p),));
        }
        if let Some(f) = &self.format {
            keys.extend(quote!(format: __p::Some(#f),));
        }
        if !self.one_of.is_empty() {
            let one_of = &self.one_of;
            keys.extend(quote!(one_of: &[#(#one_of),*],));
        }
        if self.flatten {
            keys.extend(quote!(flatten: true,));
        }
        quote!(__p::ParamSpec { #keys ..__p::ParamSpec::NONE })
    }
}
