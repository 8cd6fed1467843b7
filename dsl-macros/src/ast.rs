//! The macros' IR: a tool (function, method or derived struct) with its parameters, and a
//! `#[derive(ToolSchema)]` input with its fields and variants. Each node keeps a reference to
//! the syntax it came from, so that later stages can put errors and generated code on it.

use proc_macro2::Span;
use quote::format_ident;
use syn::spanned::Spanned;
use syn::{
    Attribute, FnArg, Generics, Ident, Member, Pat, Receiver, ReturnType, Signature, Type,
    Visibility,
};

use crate::attr::{Ctxt, ParamAttrs, SerdeContainer, SerdeField, SerdeVariant, ToolAttrs, doc_of};

/// One tool: a function, a method under `#[tools]`, or a `#[derive(Tool)]` struct.
pub(crate) struct ToolIr<'a> {
    /// The wire name and where it came from.
    pub(crate) name: String,
    pub(crate) name_span: Span,
    pub(crate) attrs: ToolAttrs,
    pub(crate) description: Option<String>,
    pub(crate) vis: &'a Visibility,
    /// The generated type (`get_weather` becomes `GetWeather`, or `#[tool(type = ...)]`), or
    /// the derived struct.
    pub(crate) type_ident: Ident,
    pub(crate) params: Vec<ParamIr<'a>>,
    /// The function's shape; `None` for `#[derive(Tool)]`.
    pub(crate) func: Option<FnIr<'a>>,
}

/// The function side of a tool.
pub(crate) struct FnIr<'a> {
    pub(crate) sig: &'a Signature,
    pub(crate) receiver: Option<&'a Receiver>,
    pub(crate) ret: Type,
    /// The `&CallContext` (or `CallContext`) parameter: how many tool parameters come before
    /// it, and whether it is taken by reference. Not a parameter the model sends.
    pub(crate) context: Option<(usize, bool)>,
}

/// Whether `ty` is `CallContext` (`Some(false)`) or `&CallContext` (`Some(true)`), by the last
/// segment of its path, as `tooldef::context::CallContext` is usually imported.
pub(crate) fn context_type(ty: &Type) -> Option<bool> {
    let (inner, by_ref) = match ty {
        Type::Reference(r) if r.mutability.is_none() => (&*r.elem, true),
        other => (other, false),
    };
    match inner {
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            (last.ident == "CallContext" && last.arguments.is_empty()).then_some(by_ref)
        }
        _ => None,
    }
}

/// One parameter (or field of a derived tool).
pub(crate) struct ParamIr<'a> {
    /// The Rust binding or field.
    pub(crate) member: Member,
    pub(crate) ty: &'a Type,
    /// The name the model sends.
    pub(crate) wire: String,
    pub(crate) wire_span: Span,
    pub(crate) doc: Option<String>,
    pub(crate) attrs: ParamAttrs,
    /// `#[serde(default)]` on a derived tool's field.
    pub(crate) serde_default: bool,
}

/// `get_weather` to `GetWeather`.
pub(crate) fn camel(ident: &Ident) -> Ident {
    let s = ident.to_string();
    let s = s.strip_prefix("r#").unwrap_or(&s);
    let mut out = String::new();
    for part in s.split('_').filter(|p| !p.is_empty()) {
        let mut c = part.chars();
        if let Some(f) = c.next() {
            out.extend(f.to_uppercase());
            out.push_str(c.as_str());
        }
    }
    if out.is_empty() {
        out.push_str("Tool");
    }
    format_ident!("{}", out, span = ident.span())
}

pub(crate) fn unraw(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

/// Reads a function or method carrying `#[tool]`; `attrs` are the tool keys already parsed.
pub(crate) fn tool_fn<'a>(
    cx: &Ctxt,
    attrs: ToolAttrs,
    fn_attrs: &[Attribute],
    vis: &'a Visibility,
    sig: &'a Signature,
) -> ToolIr<'a> {
    let ident = &sig.ident;
    let (name, name_span) = match &attrs.name {
        Some(n) => (n.value(), n.span()),
        None => (unraw(ident), ident.span()),
    };
    let description =
        attrs.description.as_ref().map(syn::LitStr::value).or_else(|| doc_of(fn_attrs));
    let type_ident = attrs.type_name.clone().unwrap_or_else(|| camel(ident));
    let mut receiver = None;
    let mut context = None;
    let mut params = Vec::new();
    for arg in &sig.inputs {
        match arg {
            FnArg::Receiver(r) => receiver = Some(r),
            FnArg::Typed(pt) => {
                let binding = match &*pt.pat {
                    Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => p.ident.clone(),
                    other => {
                        cx.error(
                            other,
                            "a tool parameter must be a plain name such as `city: String`",
                        );
                        continue;
                    }
                };
                if let Some(by_ref) = context_type(&pt.ty) {
                    if context.is_some() {
                        cx.error(&pt.ty, "a tool takes the `CallContext` once");
                    }
                    context = Some((params.len(), by_ref));
                    continue;
                }
                let attrs = ParamAttrs::from_attrs(cx, &pt.attrs);
                let (wire, wire_span) = match attrs.name.get() {
                    Some(n) => (n.value(), n.span()),
                    None => (unraw(&binding), binding.span()),
                };
                let doc =
                    attrs.description.get().map(syn::LitStr::value).or_else(|| doc_of(&pt.attrs));
                params.push(ParamIr {
                    member: Member::Named(binding),
                    ty: &pt.ty,
                    wire,
                    wire_span,
                    doc,
                    attrs,
                    serde_default: false,
                });
            }
        }
    }
    let ret = match &sig.output {
        ReturnType::Default => syn::parse_quote!(()),
        ReturnType::Type(_, ty) => (**ty).clone(),
    };
    ToolIr {
        name,
        name_span,
        attrs,
        description,
        vis,
        type_ident,
        params,
        func: Some(FnIr { sig, receiver, ret, context }),
    }
}

/// Reads a `#[derive(Tool)]` struct.
pub(crate) fn tool_struct<'a>(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<ToolIr<'a>> {
    let syn::Data::Struct(data) = &input.data else {
        cx.error(&input.ident, "`#[derive(Tool)]` applies only to structs with named fields");
        return None;
    };
    let syn::Fields::Named(fields) = &data.fields else {
        cx.error(&input.ident, "`#[derive(Tool)]` applies only to structs with named fields");
        return None;
    };
    let attrs = ToolAttrs::from_attrs(cx, &input.attrs);
    if let Some(t) = &attrs.type_name {
        cx.error(
            t,
            "`type` is not allowed on a `#[derive(Tool)]` struct: the struct itself is the tool's type",
        );
    }
    let serde = SerdeContainer::from_attrs(cx, &input.attrs);
    let (name, name_span) = match &attrs.name {
        Some(n) => (n.value(), n.span()),
        None => (crate::case::snake(&unraw(&input.ident)), input.ident.span()),
    };
    let description =
        attrs.description.as_ref().map(syn::LitStr::value).or_else(|| doc_of(&input.attrs));
    let mut params = Vec::new();
    for f in &fields.named {
        let Some(ident) = f.ident.clone() else { continue };
        let sf = SerdeField::from_attrs(cx, &f.attrs);
        if sf.skip_de {
            continue;
        }
        if sf.flatten {
            cx.error(
                f,
                "`#[serde(flatten)]` is not supported on the fields of a `#[derive(Tool)]` struct",
            );
            continue;
        }
        let attrs = ParamAttrs::from_attrs(cx, &f.attrs);
        if let Some(span) = attrs.name.span() {
            cx.error_at(span, "`name` is not allowed on a `#[derive(Tool)]` field; serde reads the field, so use `#[serde(rename = \"...\")]`");
        }
        let wire = match (&sf.rename, serde.rename_all) {
            (Some(r), _) => r.clone(),
            (None, Some(rule)) => rule.field(&unraw(&ident)),
            (None, None) => unraw(&ident),
        };
        let doc = attrs.description.get().map(syn::LitStr::value).or_else(|| doc_of(&f.attrs));
        params.push(ParamIr {
            wire_span: ident.span(),
            member: Member::Named(ident),
            ty: &f.ty,
            wire,
            doc,
            attrs,
            serde_default: sf.default || serde.default,
        });
    }
    Some(ToolIr {
        name,
        name_span,
        attrs,
        description,
        vis: &input.vis,
        type_ident: input.ident.clone(),
        params,
        func: None,
    })
}

/// A `#[derive(ToolSchema)]` input.
pub(crate) struct Container<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) generics: &'a Generics,
    pub(crate) serde: SerdeContainer,
    pub(crate) doc: Option<String>,
    pub(crate) data: Data<'a>,
}

pub(crate) enum Data<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    Named,
    Tuple,
    Unit,
}

pub(crate) struct Field<'a> {
    pub(crate) ident: Option<&'a Ident>,
    pub(crate) ty: &'a Type,
    pub(crate) serde: SerdeField,
    pub(crate) doc: Option<String>,
    pub(crate) original: &'a syn::Field,
}

pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) style: Style,
    pub(crate) fields: Vec<Field<'a>>,
    pub(crate) serde: SerdeVariant,
    pub(crate) doc: Option<String>,
}

fn fields_of<'a>(cx: &Ctxt, fields: &'a syn::Fields) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        syn::Fields::Named(_) => Style::Named,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    };
    let fields = fields
        .iter()
        .map(|f| Field {
            ident: f.ident.as_ref(),
            ty: &f.ty,
            serde: SerdeField::from_attrs(cx, &f.attrs),
            doc: doc_of(&f.attrs),
            original: f,
        })
        .collect();
    (style, fields)
}

pub(crate) fn container<'a>(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Container<'a>> {
    let data = match &input.data {
        syn::Data::Struct(s) => {
            let (style, fields) = fields_of(cx, &s.fields);
            Data::Struct(style, fields)
        }
        syn::Data::Enum(e) => Data::Enum(
            e.variants
                .iter()
                .map(|v| {
                    let (style, fields) = fields_of(cx, &v.fields);
                    Variant {
                        ident: &v.ident,
                        style,
                        fields,
                        serde: SerdeVariant::from_attrs(cx, &v.attrs),
                        doc: doc_of(&v.attrs),
                    }
                })
                .collect(),
        ),
        syn::Data::Union(u) => {
            cx.error(u.union_token, "`#[derive(ToolSchema)]` does not apply to unions");
            return None;
        }
    };
    Some(Container {
        ident: &input.ident,
        generics: &input.generics,
        serde: SerdeContainer::from_attrs(cx, &input.attrs),
        doc: doc_of(&input.attrs),
        data,
    })
}

impl Field<'_> {
    /// The name serde reads, under the container's (or variant's) `rename_all`.
    pub(crate) fn wire(&self, rule: Option<crate::case::RenameRule>) -> String {
        if let Some(r) = &self.serde.rename {
            return r.clone();
        }
        let name = self.ident.map(unraw).unwrap_or_default();
        match rule {
            Some(rule) => rule.field(&name),
            None => name,
        }
    }

    pub(crate) fn span(&self) -> Span {
        self.original.span()
    }
}

impl Variant<'_> {
    /// The name serde reads for this variant, under the container's `rename_all`.
    pub(crate) fn wire(&self, c: &Container<'_>) -> String {
        if let Some(r) = &self.serde.rename {
            return r.clone();
        }
        let name = unraw(self.ident);
        match c.serde.rename_all {
            Some(rule) => rule.variant(&name),
            None => name,
        }
    }
}
