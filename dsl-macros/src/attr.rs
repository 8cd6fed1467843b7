//! The attribute grammar: key constants, the error context, and parsers for `#[tool(...)]`,
//! `#[param(...)]`, `#[schema(...)]` and the `#[serde(...)]` keys that change the wire shape.
//!
//! Parsers only read syntax into values that keep their spans; they never decide whether a
//! combination makes sense (that is `check`).

use std::cell::RefCell;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ExprUnary, Ident, Lit, LitStr, Meta, Path, Token, UnOp};

use crate::case::RenameRule;

/// Keys of `#[tool(...)]` on a function, method or `#[derive(Tool)]` struct.
pub(crate) mod tool_key {
    pub(crate) const NAME: &str = "name";
    pub(crate) const DESCRIPTION: &str = "description";
    pub(crate) const TITLE: &str = "title";
    pub(crate) const READ_ONLY: &str = "read_only";
    pub(crate) const DESTRUCTIVE: &str = "destructive";
    pub(crate) const IDEMPOTENT: &str = "idempotent";
    pub(crate) const OPEN_WORLD: &str = "open_world";
    pub(crate) const CRATE: &str = "crate";
    pub(crate) const TYPE: &str = "type";
    pub(crate) const ALL: &[&str] =
        &[NAME, DESCRIPTION, TITLE, READ_ONLY, DESTRUCTIVE, IDEMPOTENT, OPEN_WORLD, CRATE, TYPE];
}

/// Keys of `#[param(...)]` on a parameter or a `#[derive(Tool)]` field.
pub(crate) mod param_key {
    pub(crate) const NAME: &str = "name";
    pub(crate) const DESCRIPTION: &str = "description";
    pub(crate) const RANGE: &str = "range";
    pub(crate) const MIN: &str = "min";
    pub(crate) const MAX: &str = "max";
    pub(crate) const LENGTH: &str = "length";
    pub(crate) const PATTERN: &str = "pattern";
    pub(crate) const FORMAT: &str = "format";
    pub(crate) const ONE_OF: &str = "one_of";
    pub(crate) const DEFAULT: &str = "default";
    pub(crate) const EXAMPLE: &str = "example";
    pub(crate) const ALL: &[&str] =
        &[NAME, DESCRIPTION, RANGE, MIN, MAX, LENGTH, PATTERN, FORMAT, ONE_OF, DEFAULT, EXAMPLE];
}

/// Keys of `#[tools(...)]` and `#[schema(...)]`.
pub(crate) mod crate_key {
    pub(crate) const CRATE: &str = "crate";
    pub(crate) const ALL: &[&str] = &[CRATE];
}

/// Attribute names.
pub(crate) const TOOL: &str = "tool";
pub(crate) const PARAM: &str = "param";
pub(crate) const SCHEMA: &str = "schema";
pub(crate) const SERDE: &str = "serde";

/// Collects every error of one macro call; they are emitted together.
#[derive(Default)]
pub(crate) struct Ctxt {
    errors: RefCell<Option<syn::Error>>,
}

impl Ctxt {
    pub(crate) fn error(&self, span: impl ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(span.into_token_stream(), message));
    }

    pub(crate) fn error_at(&self, span: Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    pub(crate) fn push(&self, err: syn::Error) {
        let mut slot = self.errors.borrow_mut();
        match slot.as_mut() {
            Some(e) => e.combine(err),
            None => *slot = Some(err),
        }
    }

    pub(crate) fn has_errors(&self) -> bool {
        self.errors.borrow().is_some()
    }

    pub(crate) fn into_result(self) -> Result<(), syn::Error> {
        match self.errors.into_inner() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// The closest allowed key, when it is close enough to be a typo (the rule of
/// [`crate::suggest::closest`], shared with the runtime and the command line).
pub(crate) fn suggest<'a>(key: &str, allowed: &[&'a str]) -> Option<&'a str> {
    crate::suggest::closest(key, allowed.iter().copied())
}

/// Reports an unknown key of attribute `what` (`tool`, `param`...), with a hint.
pub(crate) fn unknown_key(
    cx: &Ctxt,
    path: &Path,
    what: &str,
    allowed: &[&str],
    elsewhere: &[(&[&str], &str)],
) {
    let key = path_str(path);
    for (keys, place) in elsewhere {
        if keys.contains(&key.as_str()) {
            cx.error(path, format!("`{key}` is not allowed here; it belongs in {place}"));
            return;
        }
    }
    match suggest(&key, allowed) {
        Some(s) => cx.error(path, format!("unknown {what} attribute `{key}`; did you mean `{s}`?")),
        None => cx.error(
            path,
            format!(
                "unknown {what} attribute `{key}`; expected one of {}",
                allowed.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            ),
        ),
    }
}

pub(crate) fn path_str(path: &Path) -> String {
    path.segments.iter().map(|s| s.ident.to_string()).collect::<Vec<_>>().join("::")
}

/// A value set once, remembering where; a second set is a duplicate-key error.
pub(crate) struct Attr<T> {
    name: &'static str,
    pub(crate) value: Option<(Span, T)>,
}

impl<T> Attr<T> {
    pub(crate) fn none(name: &'static str) -> Self {
        Attr { name, value: None }
    }

    pub(crate) fn set(&mut self, cx: &Ctxt, span: Span, value: T) {
        if self.value.is_some() {
            cx.error_at(span, format!("duplicate attribute key `{}`", self.name));
        } else {
            self.value = Some((span, value));
        }
    }

    pub(crate) fn get(&self) -> Option<&T> {
        self.value.as_ref().map(|(_, v)| v)
    }

    pub(crate) fn span(&self) -> Option<Span> {
        self.value.as_ref().map(|(s, _)| *s)
    }
}

/// A literal value of a default, example, bound or enum value.
#[derive(Clone, Debug)]
pub(crate) enum Value {
    Str(String),
    Int(i128),
    Float(f64),
    Bool(bool),
}

impl Value {
    /// What the literal is, with its article: `a string`, `an integer`...
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a boolean",
        }
    }

    pub(crate) fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }
}

/// A spanned literal.
#[derive(Clone, Debug)]
pub(crate) struct SpannedValue {
    pub(crate) span: Span,
    pub(crate) value: Value,
}

/// Reads a literal expression (`"x"`, `3`, `-3`, `0.5`, `true`).
pub(crate) fn value_of(cx: &Ctxt, expr: &Expr) -> Option<SpannedValue> {
    let span = expr.span();
    let (neg, lit) = match expr {
        Expr::Lit(ExprLit { lit, .. }) => (false, lit),
        Expr::Unary(ExprUnary { op: UnOp::Neg(_), expr, .. }) => match &**expr {
            Expr::Lit(ExprLit { lit, .. }) => (true, lit),
            _ => {
                cx.error(expr, "expected a literal: a string, a number or a boolean");
                return None;
            }
        },
        Expr::Group(g) => return value_of(cx, &g.expr),
        _ => {
            cx.error(expr, "expected a literal: a string, a number or a boolean");
            return None;
        }
    };
    let sign = if neg { -1 } else { 1 };
    let value = match lit {
        Lit::Str(s) if !neg => Value::Str(s.value()),
        Lit::Bool(b) if !neg => Value::Bool(b.value),
        Lit::Int(i) => match i.base10_parse::<i128>() {
            Ok(v) if (i128::from(i64::MIN)..=i128::from(i64::MAX)).contains(&(sign * v)) => {
                Value::Int(sign * v)
            }
            _ => {
                cx.error(expr, "integer literal does not fit in a 64-bit signed integer");
                return None;
            }
        },
        Lit::Float(f) => match f.base10_parse::<f64>() {
            Ok(v) if v.is_finite() => Value::Float(sign as f64 * v),
            _ => {
                cx.error(expr, "expected a finite number");
                return None;
            }
        },
        _ => {
            cx.error(expr, "expected a literal: a string, a number or a boolean");
            return None;
        }
    };
    Some(SpannedValue { span, value })
}

/// `a..=b`, `a..`, `..=b`, or (for `length`) a single `n`.
pub(crate) struct Bounds {
    pub(crate) min: Option<SpannedValue>,
    pub(crate) max: Option<SpannedValue>,
}

pub(crate) fn bounds_of(cx: &Ctxt, expr: &Expr, allow_single: bool) -> Option<Bounds> {
    match expr {
        Expr::Range(r) => {
            if let syn::RangeLimits::HalfOpen(t) = r.limits
                && r.end.is_some()
            {
                cx.error(t, "use an inclusive range `a..=b`: bounds are inclusive");
                return None;
            }
            if r.start.is_none() && r.end.is_none() {
                cx.error(expr, "a range needs at least one bound");
                return None;
            }
            let min = match &r.start {
                Some(e) => Some(value_of(cx, e)?),
                None => None,
            };
            let max = match &r.end {
                Some(e) => Some(value_of(cx, e)?),
                None => None,
            };
            Some(Bounds { min, max })
        }
        _ if allow_single => {
            let v = value_of(cx, expr)?;
            Some(Bounds { min: Some(v.clone()), max: Some(v) })
        }
        _ => {
            cx.error(expr, "expected an inclusive range such as `1..=10`");
            None
        }
    }
}

/// `["a", "b"]`.
pub(crate) fn strings_of(cx: &Ctxt, expr: &Expr) -> Option<Vec<(Span, String)>> {
    let Expr::Array(arr) = expr else {
        cx.error(expr, "expected a list of strings such as `[\"a\", \"b\"]`");
        return None;
    };
    let mut out = Vec::new();
    for e in &arr.elems {
        match e {
            Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => out.push((s.span(), s.value())),
            other => cx.error(other, "expected a string literal"),
        }
    }
    Some(out)
}

/// The `true`/`false` of a flag key (`read_only` or `read_only = false`).
fn flag(cx: &Ctxt, meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) {
        let v: syn::LitBool = meta.value()?.parse()?;
        Ok(v.value)
    } else {
        let _ = cx;
        Ok(true)
    }
}

fn lit_str(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    meta.value()?.parse()
}

/// Parses `crate = path` (a path, or a string holding one).
fn crate_path(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Path> {
    let input = meta.value()?;
    if input.peek(LitStr) {
        let s: LitStr = input.parse()?;
        s.parse()
    } else {
        Path::parse_mod_style(input)
    }
}

/// Parses `type = Name`: one identifier, the name of the generated type.
fn type_name(cx: &Ctxt, meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Option<Ident>> {
    let expr: Expr = meta.value()?.parse()?;
    match &expr {
        Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => {
            if let Some(ident) = p.path.get_ident() {
                return Ok(Some(ident.clone()));
            }
            cx.error(&expr, "`type` takes the name of the type to generate, such as `type = WeatherTool`, not a path");
        }
        Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => {
            let hint = match syn::parse_str::<Ident>(&s.value()) {
                Ok(ident) => format!("; write `type = {ident}`"),
                Err(_) => String::new(),
            };
            cx.error(s, format!("`type` takes an identifier, not a string{hint}"));
        }
        _ => cx.error(
            &expr,
            "`type` takes the name of the type to generate, such as `type = WeatherTool`",
        ),
    }
    Ok(None)
}

/// Parses every `#[name(...)]` attribute of `attrs` with `each`, reporting errors to `cx`.
fn for_each_meta(
    cx: &Ctxt,
    attrs: &[Attribute],
    name: &str,
    mut each: impl FnMut(&syn::meta::ParseNestedMeta<'_>) -> syn::Result<()>,
) {
    // `#[tool]` may be written `#[tooldef::tool]`: match the last segment.
    for attr in attrs.iter().filter(|a| a.path().segments.last().is_some_and(|s| s.ident == name)) {
        match &attr.meta {
            Meta::Path(_) => {}
            Meta::List(list) if list.tokens.is_empty() => {}
            Meta::List(_) => {
                if let Err(e) = attr.parse_nested_meta(|meta| each(&meta)) {
                    cx.push(e);
                }
            }
            Meta::NameValue(nv) => cx.error(nv, format!("expected `#[{name}(...)]`")),
        }
    }
}

/// Skips the value of a key nobody here cares about (`= expr` or `(...)`).
fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// `#[tool(...)]`: the tool-level keys.
#[derive(Default)]
pub(crate) struct ToolAttrs {
    pub(crate) name: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
    pub(crate) krate: Option<Path>,
    /// `type = Name`: the name of the generated type.
    pub(crate) type_name: Option<Ident>,
}

const ELSEWHERE_FOR_TOOL: &[(&[&str], &str)] = &[(
    &[
        param_key::RANGE,
        param_key::MIN,
        param_key::MAX,
        param_key::LENGTH,
        param_key::PATTERN,
        param_key::FORMAT,
        param_key::ONE_OF,
        param_key::DEFAULT,
        param_key::EXAMPLE,
    ],
    "`#[param(...)]` on a parameter",
)];

const ELSEWHERE_FOR_PARAM: &[(&[&str], &str)] = &[(
    &[
        tool_key::TITLE,
        tool_key::READ_ONLY,
        tool_key::DESTRUCTIVE,
        tool_key::IDEMPOTENT,
        tool_key::OPEN_WORLD,
        tool_key::CRATE,
    ],
    "`#[tool(...)]` on the tool",
)];

impl ToolAttrs {
    /// Parses the tokens of `#[tool(...)]` as given to the attribute macro.
    pub(crate) fn from_tokens(cx: &Ctxt, tokens: TokenStream) -> ToolAttrs {
        let mut out = ToolAttrs::default();
        let mut seen = Seen::default();
        let parser = syn::meta::parser(|meta| out.key(cx, &mut seen, &meta));
        if let Err(e) = syn::parse::Parser::parse2(parser, tokens) {
            cx.push(e);
        }
        out
    }

    /// Parses `#[tool(...)]` attributes of a method or struct.
    pub(crate) fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> ToolAttrs {
        let mut out = ToolAttrs::default();
        let mut seen = Seen::default();
        for_each_meta(cx, attrs, TOOL, |meta| out.key(cx, &mut seen, meta));
        out
    }

    fn key(
        &mut self,
        cx: &Ctxt,
        seen: &mut Seen,
        meta: &syn::meta::ParseNestedMeta<'_>,
    ) -> syn::Result<()> {
        let key = path_str(&meta.path);
        if tool_key::ALL.contains(&key.as_str()) && !seen.first(cx, &meta.path, &key) {
            return skip_value(meta);
        }
        match key.as_str() {
            tool_key::NAME => self.name = Some(lit_str(meta)?),
            tool_key::DESCRIPTION => self.description = Some(lit_str(meta)?),
            tool_key::TITLE => self.title = Some(lit_str(meta)?),
            tool_key::READ_ONLY => self.read_only = Some(flag(cx, meta)?),
            tool_key::DESTRUCTIVE => self.destructive = Some(flag(cx, meta)?),
            tool_key::IDEMPOTENT => self.idempotent = Some(flag(cx, meta)?),
            tool_key::OPEN_WORLD => self.open_world = Some(flag(cx, meta)?),
            tool_key::CRATE => self.krate = Some(crate_path(meta)?),
            tool_key::TYPE => self.type_name = type_name(cx, meta)?,
            _ => {
                unknown_key(cx, &meta.path, TOOL, tool_key::ALL, ELSEWHERE_FOR_TOOL);
                skip_value(meta)?;
            }
        }
        Ok(())
    }
}

/// Keys seen so far in one attribute list.
#[derive(Default)]
struct Seen(Vec<String>);

impl Seen {
    /// `true` the first time; a duplicate-key error otherwise.
    fn first(&mut self, cx: &Ctxt, path: &Path, key: &str) -> bool {
        if self.0.iter().any(|k| k == key) {
            cx.error(path, format!("duplicate attribute key `{key}`"));
            false
        } else {
            self.0.push(key.to_owned());
            true
        }
    }
}

/// `#[tools(crate = path)]` or `#[schema(crate = path)]`.
pub(crate) fn crate_only(cx: &Ctxt, what: &str, tokens: TokenStream) -> Option<Path> {
    let mut krate = None;
    let mut seen = Seen::default();
    let parser = syn::meta::parser(|meta| crate_only_key(cx, what, &mut seen, &mut krate, &meta));
    if let Err(e) = syn::parse::Parser::parse2(parser, tokens) {
        cx.push(e);
    }
    krate
}

pub(crate) fn crate_only_attrs(cx: &Ctxt, what: &'static str, attrs: &[Attribute]) -> Option<Path> {
    let mut krate = None;
    let mut seen = Seen::default();
    for_each_meta(cx, attrs, what, |meta| crate_only_key(cx, what, &mut seen, &mut krate, meta));
    krate
}

fn crate_only_key(
    cx: &Ctxt,
    what: &str,
    seen: &mut Seen,
    krate: &mut Option<Path>,
    meta: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<()> {
    let key = path_str(&meta.path);
    if key == crate_key::CRATE {
        if seen.first(cx, &meta.path, &key) {
            *krate = Some(crate_path(meta)?);
        } else {
            skip_value(meta)?;
        }
    } else {
        unknown_key(cx, &meta.path, what, crate_key::ALL, &[]);
        skip_value(meta)?;
    }
    Ok(())
}

/// `#[param(...)]`: the keys of one parameter.
pub(crate) struct ParamAttrs {
    pub(crate) name: Attr<LitStr>,
    pub(crate) description: Attr<LitStr>,
    pub(crate) range: Attr<Bounds>,
    pub(crate) min: Attr<SpannedValue>,
    pub(crate) max: Attr<SpannedValue>,
    pub(crate) length: Attr<Bounds>,
    pub(crate) pattern: Attr<LitStr>,
    pub(crate) format: Attr<LitStr>,
    pub(crate) one_of: Attr<Vec<(Span, String)>>,
    pub(crate) default: Attr<SpannedValue>,
    pub(crate) examples: Attr<Vec<SpannedValue>>,
}

impl ParamAttrs {
    pub(crate) fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> ParamAttrs {
        let mut p = ParamAttrs {
            name: Attr::none(param_key::NAME),
            description: Attr::none(param_key::DESCRIPTION),
            range: Attr::none(param_key::RANGE),
            min: Attr::none(param_key::MIN),
            max: Attr::none(param_key::MAX),
            length: Attr::none(param_key::LENGTH),
            pattern: Attr::none(param_key::PATTERN),
            format: Attr::none(param_key::FORMAT),
            one_of: Attr::none(param_key::ONE_OF),
            default: Attr::none(param_key::DEFAULT),
            examples: Attr::none(param_key::EXAMPLE),
        };
        for_each_meta(cx, attrs, PARAM, |meta| p.key(cx, meta));
        p
    }

    fn key(&mut self, cx: &Ctxt, meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
        let key = path_str(&meta.path);
        let span = meta.path.span();
        match key.as_str() {
            param_key::NAME => self.name.set(cx, span, lit_str(meta)?),
            param_key::DESCRIPTION => self.description.set(cx, span, lit_str(meta)?),
            param_key::PATTERN => self.pattern.set(cx, span, lit_str(meta)?),
            param_key::FORMAT => self.format.set(cx, span, lit_str(meta)?),
            param_key::RANGE | param_key::LENGTH => {
                let expr: Expr = meta.value()?.parse()?;
                let single = key == param_key::LENGTH;
                if let Some(b) = bounds_of(cx, &expr, single) {
                    if single { self.length.set(cx, span, b) } else { self.range.set(cx, span, b) }
                }
            }
            param_key::MIN | param_key::MAX | param_key::DEFAULT => {
                let expr: Expr = meta.value()?.parse()?;
                if let Some(v) = value_of(cx, &expr) {
                    match key.as_str() {
                        param_key::MIN => self.min.set(cx, span, v),
                        param_key::MAX => self.max.set(cx, span, v),
                        _ => self.default.set(cx, span, v),
                    }
                }
            }
            param_key::ONE_OF => {
                let expr: Expr = meta.value()?.parse()?;
                if let Some(v) = strings_of(cx, &expr) {
                    self.one_of.set(cx, span, v);
                }
            }
            param_key::EXAMPLE => {
                let expr: Expr = meta.value()?.parse()?;
                let values = match &expr {
                    Expr::Array(a) => a.elems.iter().filter_map(|e| value_of(cx, e)).collect(),
                    e => value_of(cx, e).into_iter().collect(),
                };
                self.examples.set(cx, span, values);
            }
            _ => {
                unknown_key(cx, &meta.path, PARAM, param_key::ALL, ELSEWHERE_FOR_PARAM);
                skip_value(meta)?;
            }
        }
        Ok(())
    }
}

/// Doc comments as one description: each line loses one leading space and trailing
/// whitespace; lines of a paragraph are joined with a space, paragraphs with a blank line;
/// leading and trailing blank lines are dropped.
pub(crate) fn doc_of(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) = &nv.value
        {
            let text = s.value();
            if text.trim().is_empty() {
                // `///` alone: `"".lines()` yields nothing, but it ends a paragraph.
                lines.push(String::new());
            }
            for line in text.lines() {
                let line = line.strip_prefix(' ').unwrap_or(line).trim_end();
                lines.push(line.to_owned());
            }
        }
    }
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in lines {
        if line.trim().is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(line.trim_start());
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    if paragraphs.is_empty() { None } else { Some(paragraphs.join("\n\n")) }
}

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

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::*;

    #[test]
    fn near_misses_get_a_suggestion() {
        assert_eq!(suggest("nmae", tool_key::ALL), Some("name"));
        assert_eq!(suggest("rnage", param_key::ALL), Some("range"));
        assert_eq!(suggest("descripton", param_key::ALL), Some("description"));
        assert_eq!(suggest("readonly", tool_key::ALL), Some("read_only"));
        assert_eq!(suggest("colour", tool_key::ALL), None);
    }

    #[test]
    fn doc_comments_become_one_description() {
        let f: syn::ItemFn = parse_quote! {
            ///  Get the weather.
            /// Twice.
            ///
            /// Second paragraph.
            fn f() {}
        };
        assert_eq!(
            doc_of(&f.attrs).as_deref(),
            Some("Get the weather. Twice.\n\nSecond paragraph.")
        );
        let g: syn::ItemFn = parse_quote!(
            fn g() {}
        );
        assert_eq!(doc_of(&g.attrs), None);
    }

    #[test]
    fn param_keys_parse_with_their_values() {
        let f: syn::ItemFn = parse_quote! {
            fn f(#[param(range = -1..=10, one_of = ["a"], default = 3, example = [1, 2], length = 4)] x: u8) {}
        };
        let syn::FnArg::Typed(pt) = &f.sig.inputs[0] else { panic!() };
        let cx = Ctxt::default();
        let p = ParamAttrs::from_attrs(&cx, &pt.attrs);
        assert!(cx.into_result().is_ok());
        let r = p.range.get().unwrap();
        assert!(matches!(r.min.as_ref().unwrap().value, Value::Int(-1)));
        assert!(matches!(r.max.as_ref().unwrap().value, Value::Int(10)));
        assert_eq!(p.one_of.get().unwrap().len(), 1);
        assert!(matches!(p.default.get().unwrap().value, Value::Int(3)));
        assert_eq!(p.examples.get().unwrap().len(), 2);
        let l = p.length.get().unwrap();
        assert!(matches!(l.min.as_ref().unwrap().value, Value::Int(4)));
    }

    #[test]
    fn every_error_of_a_list_is_kept() {
        let cx = Ctxt::default();
        let _ = ToolAttrs::from_tokens(
            &cx,
            quote::quote!(nmae = "x", titel = "y", read_only, read_only),
        );
        let err = cx.into_result().unwrap_err();
        let messages: Vec<_> = err.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(
            messages,
            [
                "unknown tool attribute `nmae`; did you mean `name`?",
                "unknown tool attribute `titel`; did you mean `title`?",
                "duplicate attribute key `read_only`",
            ]
        );
    }
}
