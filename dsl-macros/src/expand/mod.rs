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
    /// A `__p::ParamSpec { ... }` expression (usable in a `static`).
    pub(crate) fn render(
        &self,
        name: &str,
        schema: TokenStream,
        optional: TokenStream,
    ) -> TokenStream {
        let description = opt(self.description.as_ref().map(|d| quote!(#d)));
        let default = opt(self.default.clone());
        let examples = &self.examples;
        let minimum = opt(self.minimum.clone());
        let maximum = opt(self.maximum.clone());
        let min_length = opt(self.min_length.map(|n| quote!(#n)));
        let max_length = opt(self.max_length.map(|n| quote!(#n)));
        let pattern = opt(self.pattern.as_ref().map(|p| quote!(#p)));
        let format = opt(self.format.as_ref().map(|p| quote!(#p)));
        let one_of = &self.one_of;
        let flatten = self.flatten;
        quote! {
            __p::ParamSpec {
                name: #name,
                description: #description,
                schema: #schema,
                optional: #optional,
                default: #default,
                examples: &[#(#examples),*],
                minimum: #minimum,
                maximum: #maximum,
                min_length: #min_length,
                max_length: #max_length,
                pattern: #pattern,
                format: #format,
                one_of: &[#(#one_of),*],
                flatten: #flatten,
            }
        }
    }
}
