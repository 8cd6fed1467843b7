//! Procedural macros for `tooldef`: `#[tool]`, `#[tools]`, `#[derive(Tool)]` and
//! `#[derive(ToolSchema)]`. Use them through the `tooldef` crate, which re-exports them.
//!
//! Every macro runs three stages over one IR: `ast` reads the syntax (with `attr` for the
//! attribute grammar), `check` reports every semantic error at once, `expand` generates code
//! from checked IR; on error `fallback` emits the user's item and stub impls.
//!
//! The reference of every attribute key, what the macros check and what they expand to is in
//! the `tooldef` crate's guide, `tooldef::guide` (the section "The attribute reference"), so that
//! it sits where users of the macros read.

mod ast;
mod attr;
mod case;
mod check;
// Shared with `tooldef`; the macros only ask whether a pattern compiles.
#[allow(dead_code)]
mod ecma;
mod expand;
mod fallback;
mod grammar;
// Shared with `tooldef`: the rules of a grammar definition.
mod grammar_rules;
// Shared with `tooldef`, where every bound of a number is judged with it; the macros judge
// a default's inclusive bounds and round a fractional bound of an integer.
#[allow(dead_code, unreachable_pub)]
mod number_bounds;
// Shared with `tooldef`, which reads what the macros write with these keys.
#[allow(unreachable_pub)]
mod packed_keys;
// Shared with `tooldef`, which builds the same pointers at run time; the macros only escape.
#[allow(dead_code, unreachable_pub)]
mod pointer_segment;
// Shared with `tooldef`, where its items are public.
#[allow(unreachable_pub)]
mod suggest;
// Shared with `tooldef`, whose run-time and `const` checks word a bad name alike; the macros
// use the whole messages only.
#[allow(dead_code, unreachable_pub)]
mod tool_name_words;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::{ImplItem, Item};

use crate::attr::{Ctxt, ToolAttrs};
use crate::expand::tool::Kind;

/// Turns a function into a tool; every key is in the attribute reference of `tooldef::guide`.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    let cx = Ctxt::default();
    let attrs = ToolAttrs::from_tokens(&cx, args.into());
    // The usual case, a function with a body: the body is passed through as tokens, unparsed
    // (the macro never looks inside it, and parsing it with syn is most of the macro's time).
    if let Ok(f) = syn::parse::<LazyFn>(input.clone()) {
        return tool_fn(cx, attrs, f).into();
    }
    let item: Item = match syn::parse(input.clone()) {
        Ok(item) => item,
        Err(e) => {
            let input = TokenStream2::from(input);
            return quote!(#input)
                .into_iter()
                .chain(e.to_compile_error())
                .collect::<TokenStream2>()
                .into();
        }
    };
    match item {
        Item::Fn(f) => {
            let body = f.block.into_token_stream();
            tool_fn(cx, attrs, LazyFn { attrs: f.attrs, vis: f.vis, sig: f.sig, body }).into()
        }
        other => {
            let span = match &other {
                Item::Struct(s) => s.struct_token.span(),
                Item::Enum(e) => e.enum_token.span(),
                Item::Impl(i) => i.impl_token.span(),
                Item::Mod(m) => m.mod_token.span(),
                Item::Trait(t) => t.trait_token.span(),
                Item::Const(c) => c.const_token.span(),
                Item::Static(s) => s.static_token.span(),
                Item::Type(t) => t.type_token.span(),
                other => other.span(),
            };
            let hint = if matches!(other, Item::Impl(_)) {
                "`#[tool]` applies to functions; put `#[tools]` on an `impl` block and `#[tool]` on its methods"
            } else {
                "`#[tool]` applies to functions"
            };
            cx.error_at(span, hint);
            with_errors(cx, other.into_token_stream()).into()
        }
    }
}

fn with_errors(cx: Ctxt, mut tokens: TokenStream2) -> TokenStream2 {
    if let Err(e) = cx.into_result() {
        tokens.extend(e.to_compile_error());
    }
    tokens
}

/// A function whose body is kept as tokens.
struct LazyFn {
    attrs: Vec<syn::Attribute>,
    vis: syn::Visibility,
    sig: syn::Signature,
    body: TokenStream2,
}

impl syn::parse::Parse for LazyFn {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let attrs = input.call(syn::Attribute::parse_outer)?;
        let vis = input.parse()?;
        let sig = input.parse()?;
        let body: proc_macro2::Group = input.parse()?;
        if body.delimiter() != proc_macro2::Delimiter::Brace {
            return Err(syn::Error::new(body.span(), "expected a function body"));
        }
        Ok(LazyFn { attrs, vis, sig, body: body.into_token_stream() })
    }
}

fn tool_fn(cx: Ctxt, attrs: ToolAttrs, f: LazyFn) -> TokenStream2 {
    let mut emitted_sig = f.sig.clone();
    fallback::strip_params(&mut emitted_sig);
    let LazyFn { attrs: fn_attrs, vis, sig, body } = &f;
    let emitted = quote!(#(#fn_attrs)* #vis #emitted_sig #body);
    let ir = ast::tool_fn(&cx, attrs, fn_attrs, vis, sig);
    check::tool(&cx, &ir, false);
    if ir.func.as_ref().is_some_and(|f| f.receiver.is_some()) {
        // A method outside `#[tools]`: the item sits in an `impl` block, where no type or
        // `const _` can follow it. Emit the method alone with the error.
        return with_errors(cx, emitted);
    }
    let krate = expand::krate(ir.attrs.krate.as_ref());
    let decl = expand::tool::type_decl(&ir, &Kind::Free, &krate);
    let body = if cx.has_errors() {
        fallback::tool_stub(&ir.type_ident, &krate)
    } else {
        expand::tool::tool_impl(&ir, &Kind::Free, &krate)
    };
    with_errors(cx, quote!(#emitted #decl #body))
}

/// Turns the `#[tool]` methods of an `impl` block into tools sharing one instance, and
/// implements `tooldef::ToolSet` for the type.
#[proc_macro_attribute]
pub fn tools(args: TokenStream, input: TokenStream) -> TokenStream {
    let cx = Ctxt::default();
    let krate_path = attr::crate_only(&cx, "tools", args.into());
    let item: syn::ItemImpl = match syn::parse(input.clone()) {
        Ok(i) => i,
        Err(_) => {
            let input = TokenStream2::from(input);
            let span = input
                .clone()
                .into_iter()
                .next()
                .map_or_else(proc_macro2::Span::call_site, |t| t.span());
            cx.error_at(span, "`#[tools]` applies to an `impl` block");
            return with_errors(cx, input).into();
        }
    };
    tools_impl(cx, krate_path, item).into()
}

fn tools_impl(cx: Ctxt, krate_path: Option<syn::Path>, item: syn::ItemImpl) -> TokenStream2 {
    if !item.generics.params.is_empty() {
        cx.error(&item.generics, "`#[tools]` does not support generic `impl` blocks");
    }
    if let Some((path, _)) = &item.trait_ {
        cx.error(path, "`#[tools]` applies to inherent `impl` blocks, not trait impls");
    }
    let self_ty = &*item.self_ty;
    // The methods as written (for the IR), and the impl as emitted (helper attributes removed).
    let methods: Vec<syn::ImplItemFn> = item
        .items
        .iter()
        .filter_map(|i| match i {
            ImplItem::Fn(m) if m.attrs.iter().any(fallback::is_tool_attr) => Some(m.clone()),
            _ => None,
        })
        .collect();
    let mut emitted = item.clone();
    for i in &mut emitted.items {
        if let ImplItem::Fn(m) = i
            && m.attrs.iter().any(fallback::is_tool_attr)
        {
            m.attrs.retain(|a| !fallback::is_tool_attr(a));
            fallback::strip_params(&mut m.sig);
        }
    }
    let irs: Vec<_> = methods
        .iter()
        .map(|m| {
            let attrs = ToolAttrs::from_attrs(&cx, &m.attrs);
            let ir = ast::tool_fn(&cx, attrs, &m.attrs, &m.vis, &m.sig);
            check::tool(&cx, &ir, true);
            ir
        })
        .collect();
    for (i, ir) in irs.iter().enumerate() {
        if irs[..i].iter().any(|o| o.name == ir.name) {
            cx.error_at(
                ir.name_span,
                format!("duplicate tool name `{}` in this `#[tools]` block", ir.name),
            );
        }
    }
    let krate = expand::krate(krate_path.as_ref());
    let kind = Kind::Method(self_ty);
    let mut out = quote!(#emitted);
    let failed = cx.has_errors();
    for ir in &irs {
        let k = match &ir.attrs.krate {
            Some(p) => expand::krate(Some(p)),
            None => krate.clone(),
        };
        out.extend(expand::tool::type_decl(ir, &kind, &k));
        out.extend(if failed {
            fallback::tool_stub(&ir.type_ident, &k)
        } else {
            expand::tool::tool_impl(ir, &kind, &k)
        });
    }
    let types: Vec<_> = irs.iter().map(|ir| &ir.type_ident).collect();
    out.extend(if failed {
        fallback::tool_set_stub(self_ty, &krate)
    } else {
        expand::tool::tool_set(self_ty, &types, &krate)
    });
    with_errors(cx, out)
}

/// Implements `tooldef::Tool` for a struct whose fields are the parameters; the call comes
/// from the struct's `tooldef::RunTool` impl.
#[proc_macro_derive(Tool, attributes(tool, param))]
pub fn derive_tool(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    let cx = Ctxt::default();
    let ir = ast::tool_struct(&cx, &input);
    if !input.generics.params.is_empty() {
        cx.error(&input.generics, "`#[derive(Tool)]` does not support generic structs");
    }
    let Some(ir) = ir else { return with_errors(cx, TokenStream2::new()).into() };
    check::tool(&cx, &ir, false);
    let krate = expand::krate(ir.attrs.krate.as_ref());
    let out = if cx.has_errors() {
        fallback::tool_stub(&ir.type_ident, &krate)
    } else {
        expand::tool::tool_impl(&ir, &Kind::Derived, &krate)
    };
    with_errors(cx, out).into()
}

/// Implements `tooldef::ToolSchema` from the type's serde wire shape.
#[proc_macro_derive(ToolSchema, attributes(schema, serde))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    let cx = Ctxt::default();
    let krate_path = attr::crate_only_attrs(&cx, attr::SCHEMA, &input.attrs);
    let krate = expand::krate(krate_path.as_ref());
    let Some(c) = ast::container(&cx, &input) else {
        return with_errors(cx, TokenStream2::new()).into();
    };
    check::container(&cx, &c);
    let out = if cx.has_errors() {
        fallback::schema_stub(&input.ident, &input.generics, &krate)
    } else {
        expand::schema::derive(&c, &krate)
    };
    with_errors(cx, out).into()
}

/// Implements `tooldef::grammar::ToolGrammar`: an enum of unit variants (each a literal: its name
/// in snake case, or `#[grammar("text")]`), or a newtype with `#[grammar(regex = "...")]` or
/// `#[grammar(lark = "...")]`. The grammar is checked at compile time.
#[proc_macro_derive(ToolGrammar, attributes(grammar))]
pub fn derive_tool_grammar(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    grammar::derive(&input).into()
}
