//! `#[derive(ToolSchema)]`: one `ToolSchema` impl whose `schema` is a short expression over
//! runtime helpers (`__p::object`, `__p::tagged`, `__p::any_of`...). Serde's wire shape decides
//! the schema: renames, `rename_all`, defaults, skips, `flatten`, and the four enum taggings.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::parse_quote;
use syn::spanned::Spanned as _;

use super::{Spec, record};
use crate::ast::{Container, Data, Field, Style, Variant, unraw};
use crate::case::RenameRule;
use crate::packed_keys as keys;

fn doc(d: &Option<String>) -> TokenStream {
    super::opt(d.as_ref().map(|d| quote!(#d)))
}

fn unknown(c: &Container<'_>) -> TokenStream {
    if c.serde.deny_unknown_fields {
        quote!(__p::Unknown::Deny)
    } else {
        quote!(__p::Unknown::Ignore)
    }
}

/// `__p::object(cx, "<packed fields>", &[(schema, optional), ...], unknown)` for named fields.
fn object(
    c: &Container<'_>,
    fields: &[Field<'_>],
    rule: Option<RenameRule>,
    container_default: bool,
) -> TokenStream {
    let mut text = String::new();
    let mut types = Vec::new();
    for f in fields.iter().filter(|f| !f.serde.skip_de) {
        let ty = f.ty;
        let span = ty.span();
        let spec = Spec { description: f.doc.clone(), flatten: f.serde.flatten, ..Spec::default() };
        spec.pack(&mut text, &f.wire(rule));
        let schema = quote_spanned!(span=> <#ty as __p::ToolSchema>::schema);
        let optional = if f.serde.default || container_default {
            quote!(true)
        } else {
            quote_spanned!(span=> <#ty as __p::ToolSchema>::OPTIONAL)
        };
        types.push(quote!((#schema, #optional)));
    }
    let unknown = unknown(c);
    quote!(__p::object(cx, #text, &[#(#types),*], #unknown))
}

fn inner(f: &Field<'_>) -> TokenStream {
    let ty = f.ty;
    quote_spanned!(ty.span()=> <#ty as __p::ToolSchema>::schema(cx))
}

/// The schema expression of a whole enum.
fn enumeration(c: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let live: Vec<&Variant<'_>> = variants.iter().filter(|v| !v.serde.skip_de).collect();
    let unknown = unknown(c);
    let tag = c.serde.tag.as_deref();
    let content = c.serde.content.as_deref();
    let externally = tag.is_none() && !c.serde.untagged;
    if externally && live.iter().all(|v| v.style == Style::Unit) {
        let text = enum_values(c, &live);
        return quote!(__p::packed_enum(#text));
    }
    let mut alternatives = Vec::new();
    if externally {
        let units: Vec<&Variant<'_>> =
            live.iter().copied().filter(|v| v.style == Style::Unit).collect();
        if !units.is_empty() {
            let text = enum_values(c, &units);
            alternatives.push(quote!(__p::packed_enum(#text)));
        }
    }
    for v in live.iter().filter(|v| !(externally && v.style == Style::Unit)) {
        let name = v.wire(c);
        let vdoc = doc(&v.doc);
        let rule = v.serde.rename_all.or(c.serde.rename_all_fields);
        let body = match v.style {
            Style::Unit => None,
            Style::Tuple => v.fields.first().map(inner),
            Style::Named => Some(object(c, &v.fields, rule, false)),
        };
        let schema = match (tag, content, body) {
            (_, _, body) if c.serde.untagged => body_or_null(body),
            (None, _, body) => {
                let body = body_or_null(body);
                quote!(__p::object_of(__p::Vec::from([__p::prop(#name, #body)]), __p::Unknown::Deny))
            }
            (Some(tag), None, None) => {
                quote!(__p::object_of(__p::Vec::from([__p::prop(#tag, __p::constant(#name, __p::None))]), #unknown))
            }
            (Some(tag), None, Some(body)) => {
                quote!(__p::tagged(__p::prop(#tag, __p::constant(#name, __p::None)), #body, #unknown))
            }
            (Some(tag), Some(content), body) => {
                let content = body.map(|b| quote!(__p::prop(#content, #b))).into_iter();
                quote!(__p::object_of(__p::Vec::from([__p::prop(#tag, __p::constant(#name, __p::None)) #(, #content)*]), #unknown))
            }
        };
        alternatives.push(quote!(__p::describe(#schema, #vdoc)));
    }
    quote!(__p::any_of(__p::Vec::from([#(#alternatives),*])))
}

/// The packed table of unit variants: each wire name, with its doc when it has one.
fn enum_values(c: &Container<'_>, variants: &[&Variant<'_>]) -> String {
    let mut text = String::new();
    for v in variants {
        record(&mut text, keys::ENUM_VALUE, &v.wire(c));
        if let Some(d) = &v.doc {
            record(&mut text, keys::DOC, d);
        }
    }
    text
}

fn body_or_null(body: Option<TokenStream>) -> TokenStream {
    body.unwrap_or_else(|| quote!(__p::Schema::null()))
}

/// The whole `ToolSchema` impl.
pub(crate) fn derive(c: &Container<'_>, krate: &TokenStream) -> TokenStream {
    let ident = c.ident;
    let mut generics = c.generics.clone();
    let params: Vec<_> = generics.type_params().map(|t| t.ident.clone()).collect();
    {
        let wc = generics.make_where_clause();
        for t in params {
            wc.predicates.push(parse_quote!(#t: __p::ToolSchema));
        }
    }
    let (impl_g, ty_g, where_clause) = generics.split_for_impl();
    let def_name = c.serde.rename.clone().unwrap_or_else(|| unraw(ident));
    let cdoc = doc(&c.doc);

    let (consts, body) = match &c.data {
        Data::Struct(style, fields) => {
            let live: Vec<&Field<'_>> = fields.iter().filter(|f| !f.serde.skip_de).collect();
            if c.serde.transparent || (*style == Style::Tuple && fields.len() == 1) {
                let Some(f) = live.first() else { return TokenStream::new() };
                let ty = f.ty;
                let optional = if c.serde.transparent {
                    quote!(const OPTIONAL: bool = <#ty as __p::ToolSchema>::OPTIONAL;)
                } else {
                    quote!()
                };
                let consts = quote! {
                    #optional
                    const SHAPE: __p::Shape = <#ty as __p::ToolSchema>::SHAPE;
                };
                let inner = inner(f);
                (consts, quote!(__p::describe(#inner, #cdoc)))
            } else if *style == Style::Unit {
                (quote!(), quote!({ let _ = cx; __p::describe(__p::Schema::null(), #cdoc) }))
            } else {
                let obj = object(c, fields, c.serde.rename_all, c.serde.default);
                (
                    quote!(),
                    quote!(__p::named(cx, __p::type_name::<Self>(), #def_name, |cx| __p::describe(#obj, #cdoc))),
                )
            }
        }
        Data::Enum(variants) => {
            let live: Vec<_> = variants.iter().filter(|v| !v.serde.skip_de).collect();
            let consts = if c.serde.tag.is_none()
                && !c.serde.untagged
                && live.iter().all(|v| v.style == Style::Unit)
            {
                let names = live.iter().map(|v| v.wire(c));
                quote!(const SHAPE: __p::Shape = __p::Shape::Enum(&[#(#names),*]);)
            } else {
                quote!()
            };
            let e = enumeration(c, variants);
            if live.iter().all(|v| v.style == Style::Unit) {
                // No variant holds data: no recursion is possible, and `cx` is not needed.
                (consts, quote!({ let _ = cx; __p::describe(#e, #cdoc) }))
            } else {
                (
                    consts,
                    quote!(__p::named(cx, __p::type_name::<Self>(), #def_name, |cx| __p::describe(#e, #cdoc))),
                )
            }
        }
    };

    quote! {
        const _: () = {
            use #krate::__private as __p;

            #[automatically_derived]
            impl #impl_g __p::ToolSchema for #ident #ty_g #where_clause {
                #consts

                fn schema(cx: &mut __p::SchemaGen) -> __p::Schema {
                    #body
                }
            }
        };
    }
}
