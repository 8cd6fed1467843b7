//! The `#[serde(...)]` keys that change the wire shape (renames, `rename_all`, defaults, skips,
//! `flatten`, the enum taggings), read from containers, fields and variants; every other serde
//! key is passed over.

use syn::{Attribute, LitStr, Token};

use super::{Ctxt, SERDE, for_each_meta, lit_str, path_str, skip_value};
use crate::case::RenameRule;

/// The serde keys of a container (struct or enum) that change the wire shape.
#[derive(Default)]
pub(crate) struct SerdeContainer {
    pub(crate) rename: Option<String>,
    pub(crate) rename_all: Option<RenameRule>,
    pub(crate) rename_all_fields: Option<RenameRule>,
    pub(crate) deny_unknown_fields: bool,
    pub(crate) tag: Option<String>,
    pub(crate) content: Option<String>,
    pub(crate) untagged: bool,
    pub(crate) default: bool,
    pub(crate) transparent: bool,
}

/// The serde keys of a field.
#[derive(Default)]
pub(crate) struct SerdeField {
    pub(crate) rename: Option<String>,
    pub(crate) default: bool,
    pub(crate) skip_de: bool,
    pub(crate) flatten: bool,
}

/// The serde keys of a variant.
#[derive(Default)]
pub(crate) struct SerdeVariant {
    pub(crate) rename: Option<String>,
    pub(crate) rename_all: Option<RenameRule>,
    pub(crate) skip_de: bool,
}

/// Serde keys whose effect on the wire the schema cannot see.
const OPAQUE: &[&str] =
    &["with", "deserialize_with", "from", "try_from", "remote", "other", "untagged_variant"];

fn opaque(cx: &Ctxt, meta: &syn::meta::ParseNestedMeta<'_>, key: &str) -> syn::Result<()> {
    cx.error(
        &meta.path,
        format!(
            "`#[serde({key})]` changes the wire shape in a way `#[derive(ToolSchema)]` cannot see; implement `ToolSchema` by hand"
        ),
    );
    skip_value(meta)
}

/// `rename = "x"` or `rename(deserialize = "x")`: the name serde reads.
fn de_name(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Option<String>> {
    if meta.input.peek(Token![=]) {
        return Ok(Some(lit_str(meta)?.value()));
    }
    let mut out = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("deserialize") {
            out = Some(lit_str(&inner)?.value());
        } else {
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    Ok(out)
}

fn de_rule(cx: &Ctxt, meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Option<RenameRule>> {
    let parse = |s: LitStr| match RenameRule::parse(&s.value()) {
        Some(r) => Some(r),
        None => {
            cx.error(&s, format!("unknown case style `{}`", s.value()));
            None
        }
    };
    if meta.input.peek(Token![=]) {
        return Ok(parse(lit_str(meta)?));
    }
    let mut out = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("deserialize") {
            out = parse(lit_str(&inner)?);
        } else {
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    Ok(out)
}

impl SerdeContainer {
    pub(crate) fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> SerdeContainer {
        let mut s = SerdeContainer::default();
        // Keys serde rejects are serde's to report; only shape-changing keys are read here.
        for_each_meta(cx, attrs, SERDE, |meta| {
            let key = path_str(&meta.path);
            match key.as_str() {
                "rename" => s.rename = de_name(meta)?,
                "rename_all" => s.rename_all = de_rule(cx, meta)?,
                "rename_all_fields" => s.rename_all_fields = de_rule(cx, meta)?,
                "deny_unknown_fields" => s.deny_unknown_fields = true,
                "tag" => s.tag = Some(lit_str(meta)?.value()),
                "content" => s.content = Some(lit_str(meta)?.value()),
                "untagged" => s.untagged = true,
                "transparent" => s.transparent = true,
                "default" => {
                    s.default = true;
                    skip_value(meta)?;
                }
                k if OPAQUE.contains(&k) => opaque(cx, meta, k)?,
                _ => skip_value(meta)?,
            }
            Ok(())
        });
        s
    }
}

impl SerdeField {
    pub(crate) fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> SerdeField {
        let mut s = SerdeField::default();
        for_each_meta(cx, attrs, SERDE, |meta| {
            let key = path_str(&meta.path);
            match key.as_str() {
                "rename" => s.rename = de_name(meta)?,
                "default" => {
                    s.default = true;
                    skip_value(meta)?;
                }
                "skip" | "skip_deserializing" => s.skip_de = true,
                "flatten" => s.flatten = true,
                k if OPAQUE.contains(&k) => opaque(cx, meta, k)?,
                _ => skip_value(meta)?,
            }
            Ok(())
        });
        s
    }
}

impl SerdeVariant {
    pub(crate) fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> SerdeVariant {
        let mut s = SerdeVariant::default();
        for_each_meta(cx, attrs, SERDE, |meta| {
            let key = path_str(&meta.path);
            match key.as_str() {
                "rename" => s.rename = de_name(meta)?,
                "rename_all" => s.rename_all = de_rule(cx, meta)?,
                "skip" | "skip_deserializing" => s.skip_de = true,
                "untagged" => opaque(cx, meta, "untagged` on a variant")?,
                k if OPAQUE.contains(&k) => opaque(cx, meta, k)?,
                _ => skip_value(meta)?,
            }
            Ok(())
        });
        s
    }
}
