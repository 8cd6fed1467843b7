//! `#[derive(ToolGrammar)]`: a Rust type as the text of a grammar.
//!
//! Three forms, each checked here at compile time with the rules `tooldef` checks at run time
//! (`grammar_rules.rs`, shared):
//! - an enum of unit variants: each variant is a literal (its name in snake case, or
//!   `#[grammar("text")]`), the grammar is the Lark rule `start: "a" | "b"`;
//! - a newtype with `#[grammar(regex = "...")]`: the whole input matches the regex;
//! - a newtype with `#[grammar(lark = "...")]`: the Lark grammar as written.
//!
//! The generated code is one `impl` with a `const` and a small `parse`: no per-type tables, so
//! the macro costs little at compile time.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields, LitStr};

use crate::case::snake;
use crate::grammar_rules::check_definition;

/// Expands the derive, or the compile errors.
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    match expand(input) {
        Ok(tokens) => tokens,
        Err(e) => e.to_compile_error(),
    }
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "`#[derive(ToolGrammar)]` does not support generic types",
        ));
    }
    let krate = quote!(::tooldef);
    let ident = &input.ident;
    match &input.data {
        Data::Enum(e) => {
            let mut literals = Vec::new();
            let mut variants = Vec::new();
            for v in &e.variants {
                if !matches!(v.fields, Fields::Unit) {
                    return Err(syn::Error::new_spanned(
                        v,
                        "a grammar enum's variants are literals: unit variants only",
                    ));
                }
                let text = match grammar_attr(&v.attrs)? {
                    None => snake(&v.ident.to_string()),
                    Some(Attr::Literal(l)) => l.value(),
                    Some(Attr::Regex(l) | Attr::Lark(l)) => {
                        return Err(syn::Error::new_spanned(
                            l,
                            "on a variant, write the literal: `#[grammar(\"text\")]`",
                        ));
                    }
                };
                if text.is_empty() {
                    return Err(syn::Error::new_spanned(v, "a grammar literal cannot be empty"));
                }
                if literals.contains(&text) {
                    return Err(syn::Error::new_spanned(
                        v,
                        format!("the literal {text:?} is given twice"),
                    ));
                }
                literals.push(text);
                variants.push(&v.ident);
            }
            let Some(last) = variants.last() else {
                return Err(syn::Error::new_spanned(ident, "a grammar enum needs a variant"));
            };
            let alternatives: Vec<String> = literals.iter().map(|l| lark_string(l)).collect();
            let definition = format!("start: {}", alternatives.join(" | "));
            check_definition(false, &definition)
                .map_err(|reason| syn::Error::new_spanned(ident, reason))?;
            let arms = variants
                .iter()
                .enumerate()
                .take(variants.len() - 1)
                .map(|(i, v)| quote!(#i => ::core::result::Result::Ok(#ident::#v),));
            Ok(quote! {
                impl #krate::grammar::ToolGrammar for #ident {
                    const GRAMMAR: #krate::grammar::Grammar =
                        #krate::grammar::Grammar::lark(#definition);
                    fn parse(
                        input: &str,
                    ) -> ::core::result::Result<Self, #krate::grammar::GrammarError> {
                        match #krate::grammar::match_literal(input, &[#(#literals),*])? {
                            #(#arms)*
                            _ => ::core::result::Result::Ok(#ident::#last),
                        }
                    }
                }
            })
        }
        Data::Struct(s) if s.fields.len() == 1 && !matches!(s.fields, Fields::Named(_)) => {
            let make = quote!(#ident(::core::convert::From::from(input.to_owned())));
            match grammar_attr(&input.attrs)? {
                Some(Attr::Regex(re)) => {
                    check_definition(true, &re.value())
                        .map_err(|reason| syn::Error::new_spanned(&re, reason))?;
                    Ok(quote! {
                        impl #krate::grammar::ToolGrammar for #ident {
                            const GRAMMAR: #krate::grammar::Grammar =
                                #krate::grammar::Grammar::regex(#re);
                            fn parse(
                                input: &str,
                            ) -> ::core::result::Result<Self, #krate::grammar::GrammarError> {
                                static RE: #krate::grammar::RegexGrammar =
                                    #krate::grammar::RegexGrammar::new(#re);
                                RE.check(input)?;
                                ::core::result::Result::Ok(#make)
                            }
                        }
                    })
                }
                Some(Attr::Lark(lark)) => {
                    check_definition(false, &lark.value())
                        .map_err(|reason| syn::Error::new_spanned(&lark, reason))?;
                    Ok(quote! {
                        impl #krate::grammar::ToolGrammar for #ident {
                            const GRAMMAR: #krate::grammar::Grammar =
                                #krate::grammar::Grammar::lark(#lark);
                            fn parse(
                                input: &str,
                            ) -> ::core::result::Result<Self, #krate::grammar::GrammarError> {
                                ::core::result::Result::Ok(#make)
                            }
                        }
                    })
                }
                _ => Err(syn::Error::new_spanned(
                    ident,
                    "a grammar newtype needs `#[grammar(regex = \"...\")]` or \
                     `#[grammar(lark = \"...\")]`",
                )),
            }
        }
        _ => Err(syn::Error::new_spanned(
            ident,
            "`#[derive(ToolGrammar)]` takes an enum of unit variants or a newtype struct",
        )),
    }
}

/// What one `#[grammar(...)]` says.
enum Attr {
    Literal(LitStr),
    Regex(LitStr),
    Lark(LitStr),
}

/// The one `#[grammar(...)]` among `attrs`, if any.
fn grammar_attr(attrs: &[syn::Attribute]) -> syn::Result<Option<Attr>> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("grammar")) {
        if found.is_some() {
            return Err(syn::Error::new_spanned(attr, "`#[grammar]` is given twice"));
        }
        if let Ok(lit) = attr.parse_args::<LitStr>() {
            found = Some(Attr::Literal(lit));
            continue;
        }
        let mut one = None;
        attr.parse_nested_meta(|meta| {
            let lit: LitStr = meta.value()?.parse()?;
            one = Some(if meta.path.is_ident("regex") {
                Attr::Regex(lit)
            } else if meta.path.is_ident("lark") {
                Attr::Lark(lit)
            } else {
                return Err(meta.error("expected `regex = \"...\"` or `lark = \"...\"`"));
            });
            Ok(())
        })?;
        found = one;
    }
    Ok(found)
}

/// `text` as a Lark string literal.
fn lark_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
