//! The one table of JSON Schema keywords: one row per keyword tooldef knows, with its wire name,
//! what import does with it, the type family whose values it constrains, the IR bound it maps
//! to, which of two values in one `allOf` is the tighter, and the render [`Keyword`] a
//! provider's dialect may keep or lower.
//!
//! Import, export, the render `Keyword` names, the providers' lists of allowed keywords and the
//! CLI's reading of Gemini counts all read this table. Adding a keyword is one row here, then
//! the file that lowers it (`import/lower/<kind>.rs`) and the tests.
//!
//! [`Keyword`]: crate::render::Keyword

use crate::schema::Bound;

/// The JSON type whose values a keyword constrains (the others ignore it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Family {
    String,
    Number,
    Array,
    Object,
}

/// What import does with a keyword.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Role {
    /// Typed into the IR as a constraint: what it says changes what is valid.
    Constraint,
    /// An annotation the IR holds (`title`, `description`, `default`, `examples`).
    Annotation,
    /// The root's definition tables (`$defs`, `definitions`).
    Definitions,
    /// An annotation the IR has no place for: dropped with a note.
    Dropped,
    /// Changes what is valid and the IR cannot type it: kept verbatim, with why.
    Kept(&'static str),
}

/// Of two different values of a keyword in one `allOf`, which one import keeps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Tightens {
    /// The greater number (a lower bound).
    Greater,
    /// The smaller number (an upper bound).
    Smaller,
    /// `true` (`uniqueItems`).
    True,
    /// The types both allow (`type`).
    Common,
    /// None: two different values cannot be merged exactly.
    Never,
}

/// Writes [`SchemaKeyword`], its accessors and the render [`Keyword`](crate::render::Keyword)
/// mapping from one row per keyword:
/// `Variant = "wire" : role, family, bound, tightens, size, [render variant]`.
macro_rules! keywords {
    ($(
        $(#[$doc:meta])*
        $name:ident = $wire:literal :
            $role:expr, $family:expr, $bound:expr, $tightens:ident, $size:literal,
            [$($render:ident)?];
    )*) => {
        /// A JSON Schema keyword tooldef knows: each one's wire name, and whether it bounds the
        /// size of a value. The table of `json_schema/keyword.rs` is the one list of keyword
        /// names that import, export, the renderers and the providers' checkers read.
        ///
        /// ```
        /// use tooldef::json_schema::SchemaKeyword;
        ///
        /// assert_eq!(SchemaKeyword::from_wire("minItems"), Some(SchemaKeyword::MinItems));
        /// assert_eq!(SchemaKeyword::MinItems.wire(), "minItems");
        /// assert!(SchemaKeyword::MinItems.is_size_bound());
        /// assert_eq!(SchemaKeyword::from_wire("x-internal"), None);
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum SchemaKeyword {
            $( $(#[$doc])* $name, )*
        }

        impl SchemaKeyword {
            /// Every keyword, in the table's order.
            pub const ALL: &'static [SchemaKeyword] = &[$(SchemaKeyword::$name),*];

            /// The keyword as written in JSON Schema (`"minItems"`).
            #[must_use]
            pub const fn wire(self) -> &'static str {
                match self { $(SchemaKeyword::$name => $wire,)* }
            }

            /// The keyword written `wire`, when tooldef knows it.
            #[must_use]
            pub fn from_wire(wire: &str) -> Option<SchemaKeyword> {
                Some(match wire { $($wire => SchemaKeyword::$name,)* _ => return None })
            }

            /// Whether the keyword bounds the size of the value itself: its length, its number
            /// of items or of properties (`minLength`, `maxItems`, `minProperties`...; not
            /// `minContains`, which counts the items that match `contains`).
            #[must_use]
            pub const fn is_size_bound(self) -> bool {
                match self { $(SchemaKeyword::$name => $size,)* }
            }

            /// What import does with the keyword.
            pub(crate) const fn role(self) -> Role {
                match self { $(SchemaKeyword::$name => $role,)* }
            }

            /// The type whose values the keyword constrains, when it belongs to one.
            pub(crate) const fn family(self) -> Option<Family> {
                match self { $(SchemaKeyword::$name => $family,)* }
            }

            /// The IR bound the keyword is held as, when it is one.
            #[cfg_attr(not(test), allow(dead_code))]
            pub(crate) const fn bound(self) -> Option<Bound> {
                match self { $(SchemaKeyword::$name => $bound,)* }
            }

            /// Of two different values in one `allOf`, which one import keeps.
            pub(crate) const fn tightens(self) -> Tightens {
                match self { $(SchemaKeyword::$name => Tightens::$tightens,)* }
            }

            /// The render [`Keyword`](crate::render::Keyword) variant the row names, by name.
            #[cfg(test)]
            fn render_name(self) -> Option<&'static str> {
                match self {
                    $($(SchemaKeyword::$name => Some(stringify!($render)),)?)*
                    _ => None,
                }
            }
        }

        /// The rows that name a render [`Keyword`](crate::render::Keyword), in the order of its
        /// variants (each variant's bit in [`Keywords`](crate::render::Keywords) is its place
        /// here): `Keyword::as_str` and `Keywords::ALL` read this.
        pub(crate) const RENDERED: &[SchemaKeyword] =
            &[$($({ let _ = stringify!($render); SchemaKeyword::$name },)?)*];
    };
}

use Family::{Array, Number, Object};
use Role::{Annotation, Constraint, Definitions, Dropped, Kept};

const STRING: Option<Family> = Some(Family::String);
const NUMBER: Option<Family> = Some(Number);
const ARRAY: Option<Family> = Some(Array);
const OBJECT: Option<Family> = Some(Object);

const NO_TUPLES: Role = Kept("the IR has no tuples");
const NO_CONDITIONALS: Role = Kept("the IR has no conditional schemas");
const NO_DEPENDENCIES: Role = Kept("the IR has no dependencies between properties");
const NO_CONTAINS: Role = Kept("the IR has no `contains`");
const NO_DYNAMIC_REFS: Role = Kept("dynamic references are not supported");
const NO_COUNTS: Role = Kept("the IR does not count properties");

keywords! {
    /// `type`.
    Type = "type": Constraint, None, None, Common, false, [];
    /// `enum`.
    Enum = "enum": Constraint, None, None, Never, false, [];
    /// `const`.
    Const = "const": Constraint, None, None, Never, false, [];
    /// `anyOf`.
    AnyOf = "anyOf": Constraint, None, None, Never, false, [];
    /// `oneOf`.
    OneOf = "oneOf": Constraint, None, None, Never, false, [];
    /// `allOf`.
    AllOf = "allOf": Constraint, None, None, Never, false, [];
    /// `$ref`.
    Ref = "$ref": Constraint, None, None, Never, false, [];
    /// `$defs`.
    Defs = "$defs": Definitions, None, None, Never, false, [];
    /// `definitions` (draft-07).
    Definitions = "definitions": Definitions, None, None, Never, false, [];

    /// `title`.
    Title = "title": Annotation, None, None, Never, false, [Title];
    /// `description`.
    Description = "description": Annotation, None, None, Never, false, [];
    /// `default`.
    Default = "default": Annotation, None, None, Never, false, [Default];
    /// `examples`.
    Examples = "examples": Annotation, None, None, Never, false, [Examples];

    /// `format`.
    Format = "format": Constraint, STRING, Some(Bound::Format), Never, false, [Format];
    /// `pattern`.
    Pattern = "pattern": Constraint, STRING, Some(Bound::Pattern), Never, false, [Pattern];
    /// `minLength`.
    MinLength = "minLength": Constraint, STRING, Some(Bound::MinLength), Greater, true, [MinLength];
    /// `maxLength`.
    MaxLength = "maxLength": Constraint, STRING, Some(Bound::MaxLength), Smaller, true, [MaxLength];

    /// `minimum`.
    Minimum = "minimum": Constraint, NUMBER, Some(Bound::Minimum), Greater, false, [Minimum];
    /// `maximum`.
    Maximum = "maximum": Constraint, NUMBER, Some(Bound::Maximum), Smaller, false, [Maximum];
    /// `exclusiveMinimum`.
    ExclusiveMinimum = "exclusiveMinimum":
        Constraint, NUMBER, Some(Bound::ExclusiveMinimum), Greater, false, [ExclusiveMinimum];
    /// `exclusiveMaximum`.
    ExclusiveMaximum = "exclusiveMaximum":
        Constraint, NUMBER, Some(Bound::ExclusiveMaximum), Smaller, false, [ExclusiveMaximum];
    /// `multipleOf`.
    MultipleOf = "multipleOf": Constraint, NUMBER, Some(Bound::MultipleOf), Never, false, [MultipleOf];

    /// `items`.
    Items = "items": Constraint, ARRAY, None, Never, false, [];
    /// `minItems`.
    MinItems = "minItems": Constraint, ARRAY, Some(Bound::MinLength), Greater, true, [MinItems];
    /// `maxItems`.
    MaxItems = "maxItems": Constraint, ARRAY, Some(Bound::MaxLength), Smaller, true, [MaxItems];
    /// `uniqueItems`.
    UniqueItems = "uniqueItems": Constraint, ARRAY, Some(Bound::Unique), True, false, [UniqueItems];

    /// `properties`.
    Properties = "properties": Constraint, OBJECT, None, Never, false, [];
    /// `required`.
    Required = "required": Constraint, OBJECT, None, Never, false, [];
    /// `additionalProperties`.
    AdditionalProperties = "additionalProperties": Constraint, OBJECT, None, Never, false, [];

    /// `not`.
    Not = "not": Kept("the IR has no negation"), None, None, Never, false, [];
    /// `if`.
    If = "if": NO_CONDITIONALS, None, None, Never, false, [];
    /// `then`.
    Then = "then": NO_CONDITIONALS, None, None, Never, false, [];
    /// `else`.
    Else = "else": NO_CONDITIONALS, None, None, Never, false, [];
    /// `patternProperties`.
    PatternProperties = "patternProperties":
        Kept("the IR names every property; keys matched by pattern are not expressible"),
        None, None, Never, false, [];
    /// `propertyNames`.
    PropertyNames = "propertyNames":
        Kept("the IR does not constrain property names"), None, None, Never, false, [];
    /// `dependentRequired`.
    DependentRequired = "dependentRequired": NO_DEPENDENCIES, None, None, Never, false, [];
    /// `dependentSchemas`.
    DependentSchemas = "dependentSchemas": NO_DEPENDENCIES, None, None, Never, false, [];
    /// `dependencies` (draft-07).
    Dependencies = "dependencies": NO_DEPENDENCIES, None, None, Never, false, [];
    /// `minProperties`.
    MinProperties = "minProperties": NO_COUNTS, None, None, Never, true, [];
    /// `maxProperties`.
    MaxProperties = "maxProperties": NO_COUNTS, None, None, Never, true, [];
    /// `unevaluatedProperties`.
    UnevaluatedProperties = "unevaluatedProperties":
        Kept("the IR has no evaluation tracking"), None, None, Never, false, [];
    /// `unevaluatedItems`.
    UnevaluatedItems = "unevaluatedItems":
        Kept("the IR has no item evaluation tracking"), None, None, Never, false, [];
    /// `prefixItems`.
    PrefixItems = "prefixItems": NO_TUPLES, None, None, Never, false, [];
    /// `additionalItems` (draft-07).
    AdditionalItems = "additionalItems": NO_TUPLES, None, None, Never, false, [];
    /// `contains`.
    Contains = "contains": NO_CONTAINS, None, None, Never, false, [];
    /// `minContains`.
    MinContains = "minContains": NO_CONTAINS, None, None, Never, false, [];
    /// `maxContains`.
    MaxContains = "maxContains": NO_CONTAINS, None, None, Never, false, [];
    /// `$dynamicRef`.
    DynamicRef = "$dynamicRef": NO_DYNAMIC_REFS, None, None, Never, false, [];
    /// `$recursiveRef` (2019-09).
    RecursiveRef = "$recursiveRef": NO_DYNAMIC_REFS, None, None, Never, false, [];

    /// `$schema`.
    Schema = "$schema": Dropped, None, None, Never, false, [];
    /// `$id`.
    Id = "$id": Dropped, None, None, Never, false, [];
    /// `$comment`.
    Comment = "$comment": Dropped, None, None, Never, false, [];
    /// `$anchor`.
    Anchor = "$anchor": Dropped, None, None, Never, false, [];
    /// `$dynamicAnchor`.
    DynamicAnchor = "$dynamicAnchor": Dropped, None, None, Never, false, [];
    /// `$vocabulary`.
    Vocabulary = "$vocabulary": Dropped, None, None, Never, false, [];
    /// `deprecated`.
    Deprecated = "deprecated": Dropped, None, None, Never, false, [];
    /// `readOnly`.
    ReadOnly = "readOnly": Dropped, None, None, Never, false, [];
    /// `writeOnly`.
    WriteOnly = "writeOnly": Dropped, None, None, Never, false, [];
    /// `contentMediaType`.
    ContentMediaType = "contentMediaType": Dropped, None, None, Never, false, [];
    /// `contentEncoding`.
    ContentEncoding = "contentEncoding": Dropped, None, None, Never, false, [];
    /// `contentSchema`.
    ContentSchema = "contentSchema": Dropped, None, None, Never, false, [];
    /// `example` (OpenAPI; JSON Schema writes `examples`).
    Example = "example": Dropped, None, None, Never, false, [];
    /// `discriminator` (OpenAPI).
    Discriminator = "discriminator": Dropped, None, None, Never, false, [];
    /// `nullable` (OpenAPI 3.0; JSON Schema writes a `type` array).
    Nullable = "nullable": Dropped, None, None, Never, false, [];
}

/// The JSON Schema type names.
pub(crate) const TYPE_NAMES: &[&str] =
    &["string", "integer", "number", "boolean", "null", "array", "object"];

/// The type family of the keyword written `wire`, when it belongs to one.
pub(crate) fn family_of(wire: &str) -> Option<Family> {
    SchemaKeyword::from_wire(wire).and_then(SchemaKeyword::family)
}

/// Whether the keyword written `wire` is typed into the IR as a constraint (the rest only
/// describe, are kept verbatim, or are unknown and dropped).
pub(crate) fn is_constraint(wire: &str) -> bool {
    SchemaKeyword::from_wire(wire).is_some_and(|k| k.role() == Constraint)
}

/// Why the keyword written `wire` is kept verbatim, when it is.
pub(crate) fn kept_reason(wire: &str) -> Option<&'static str> {
    match SchemaKeyword::from_wire(wire)?.role() {
        Kept(why) => Some(why),
        _ => None,
    }
}

/// Whether the keyword written `wire` is an annotation the IR holds.
pub(crate) fn is_annotation(wire: &str) -> bool {
    SchemaKeyword::from_wire(wire).is_some_and(|k| k.role() == Annotation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{ListSchema, NumberSchema, Schema, SchemaKind, StringSchema};

    #[test]
    fn wire_names_read_back() {
        for k in SchemaKeyword::ALL {
            assert_eq!(SchemaKeyword::from_wire(k.wire()), Some(*k));
        }
    }

    #[test]
    fn each_bound_is_held_by_a_kind_of_its_family() {
        for k in SchemaKeyword::ALL {
            let Some(bound) = k.bound() else { continue };
            let mut kinds: Vec<SchemaKind> = match k.family() {
                Some(Family::String) => vec![SchemaKind::String(StringSchema::default())],
                Some(Family::Number) => vec![
                    SchemaKind::Integer(NumberSchema::default()),
                    SchemaKind::Float(NumberSchema::default()),
                ],
                Some(Family::Array) => {
                    vec![SchemaKind::List(ListSchema {
                        items: Schema::any().into(),
                        min_items: None,
                        max_items: None,
                        unique: false,
                    })]
                }
                other => panic!("{}: a bound of family {other:?}", k.wire()),
            };
            for kind in &mut kinds {
                assert!(bound.slot(kind).is_ok(), "{}", k.wire());
            }
        }
    }

    /// The module docs of `json_schema` say, per kept keyword, whether dispatch enforces it:
    /// every keyword import keeps verbatim has its row there, so a keyword added to the table
    /// as kept cannot leave users guessing.
    #[test]
    fn every_kept_keyword_has_its_row_in_the_dispatch_table() {
        let docs = include_str!("mod.rs");
        let rows: Vec<&str> = docs
            .lines()
            .skip_while(|l| !l.starts_with("//! | keyword | dispatch |"))
            .take_while(|l| l.starts_with("//! |"))
            .collect();
        let missing: Vec<&str> = SchemaKeyword::ALL
            .iter()
            .filter(|k| kept_reason(k.wire()).is_some())
            .map(|k| k.wire())
            .filter(|wire| {
                !rows.iter().any(|row| {
                    let keywords = row.split('|').nth(1).unwrap_or_default();
                    keywords.contains(&format!("`{wire}`"))
                })
            })
            .collect();
        assert!(!rows.is_empty(), "the dispatch table is gone from json_schema's docs");
        assert_eq!(missing, Vec::<&str>::new());
    }

    #[test]
    fn render_keywords_are_the_rows_that_name_them_in_bit_order() {
        use crate::render::Keyword as R;
        let variants = [
            R::Title,
            R::Default,
            R::Examples,
            R::Format,
            R::Pattern,
            R::MinLength,
            R::MaxLength,
            R::Minimum,
            R::Maximum,
            R::ExclusiveMinimum,
            R::ExclusiveMaximum,
            R::MultipleOf,
            R::MinItems,
            R::MaxItems,
            R::UniqueItems,
        ];
        assert_eq!(variants.len(), RENDERED.len());
        for (i, (r, row)) in variants.into_iter().zip(RENDERED).enumerate() {
            assert_eq!(r as usize, i);
            assert_eq!(row.render_name(), Some(format!("{r:?}").as_str()));
            assert_eq!(r.as_str(), row.wire());
            assert!(crate::render::Keywords::ALL.contains(r));
        }
        let named = SchemaKeyword::ALL.iter().filter(|k| k.render_name().is_some()).count();
        assert_eq!(named, RENDERED.len());
    }
}
