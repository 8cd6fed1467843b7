//! Which schema kind carries which bound: the one mapping of a bound keyword (`minimum`,
//! `maxLength`, `pattern`...) onto the field of the kind that holds it.
//!
//! The `const` [`Param`](super::Param) setters and the macros' runtime both set bounds through
//! [`Bound::slot`]; each decides how its value converts (an integer bound on a number schema, a
//! fractional bound rounded inwards on an integer one) and what a bound that does not fit the
//! kind means to its user (a recorded misuse, or nothing when the macros already refused it).

use super::SchemaKind;
use crate::literal::Text;

/// A bound keyword of JSON Schema that some kinds carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// Inclusive lower bound of a number.
    Minimum,
    /// Inclusive upper bound of a number.
    Maximum,
    /// Exclusive lower bound of a number.
    ExclusiveMinimum,
    /// Exclusive upper bound of a number.
    ExclusiveMaximum,
    /// A number's step.
    MultipleOf,
    /// Minimum length of a string, or minimum item count of a list.
    MinLength,
    /// Maximum length of a string, or maximum item count of a list.
    MaxLength,
    /// A string's pattern.
    Pattern,
    /// A string's format.
    Format,
    /// A list's items are distinct.
    Unique,
}

/// The field of a schema kind that holds a bound, typed by what the kind stores.
pub(crate) enum Slot<'a> {
    /// An integer schema's bound.
    Int(&'a mut Option<i64>),
    /// A number schema's bound.
    Float(&'a mut Option<f64>),
    /// A string's length or a list's item count.
    Count(&'a mut Option<u64>),
    /// A string's pattern or format.
    Text(&'a mut Option<Text>),
    /// A list's uniqueness.
    Flag(&'a mut bool),
}

/// A bound that does not fit a schema kind: the bound, and the kind's JSON type name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Misfit {
    /// The bound.
    pub(crate) bound: Bound,
    /// The kind's type name (`"string"`, `"integer"`...).
    pub(crate) kind: &'static str,
}

impl Bound {
    /// The field of `kind` that holds this bound (usable in `const`).
    ///
    /// # Errors
    ///
    /// A [`Misfit`] when the kind carries no such bound.
    pub(crate) const fn slot(self, kind: &mut SchemaKind) -> Result<Slot<'_>, Misfit> {
        let kind_name = kind.type_name();
        let slot = match kind {
            SchemaKind::Integer(n) => match self {
                Bound::Minimum => Some(Slot::Int(&mut n.minimum)),
                Bound::Maximum => Some(Slot::Int(&mut n.maximum)),
                Bound::ExclusiveMinimum => Some(Slot::Int(&mut n.exclusive_minimum)),
                Bound::ExclusiveMaximum => Some(Slot::Int(&mut n.exclusive_maximum)),
                Bound::MultipleOf => Some(Slot::Int(&mut n.multiple_of)),
                _ => None,
            },
            SchemaKind::Float(n) => match self {
                Bound::Minimum => Some(Slot::Float(&mut n.minimum)),
                Bound::Maximum => Some(Slot::Float(&mut n.maximum)),
                Bound::ExclusiveMinimum => Some(Slot::Float(&mut n.exclusive_minimum)),
                Bound::ExclusiveMaximum => Some(Slot::Float(&mut n.exclusive_maximum)),
                Bound::MultipleOf => Some(Slot::Float(&mut n.multiple_of)),
                _ => None,
            },
            SchemaKind::String(s) => match self {
                Bound::MinLength => Some(Slot::Count(&mut s.min_length)),
                Bound::MaxLength => Some(Slot::Count(&mut s.max_length)),
                Bound::Pattern => Some(Slot::Text(&mut s.pattern)),
                Bound::Format => Some(Slot::Text(&mut s.format)),
                _ => None,
            },
            SchemaKind::List(l) => match self {
                Bound::MinLength => Some(Slot::Count(&mut l.min_items)),
                Bound::MaxLength => Some(Slot::Count(&mut l.max_items)),
                Bound::Unique => Some(Slot::Flag(&mut l.unique)),
                _ => None,
            },
            _ => None,
        };
        match slot {
            Some(slot) => Ok(slot),
            None => Err(Misfit { bound: self, kind: kind_name }),
        }
    }
}

impl Bound {
    /// The JSON Schema keyword (`minimum`, `maxLength`...; a list's lengths are `minItems` and
    /// `maxItems` in JSON Schema, named here by the string keyword).
    pub(crate) const fn keyword(self) -> &'static str {
        match self {
            Bound::Minimum => "minimum",
            Bound::Maximum => "maximum",
            Bound::ExclusiveMinimum => "exclusiveMinimum",
            Bound::ExclusiveMaximum => "exclusiveMaximum",
            Bound::MultipleOf => "multipleOf",
            Bound::MinLength => "minLength",
            Bound::MaxLength => "maxLength",
            Bound::Pattern => "pattern",
            Bound::Format => "format",
            Bound::Unique => "uniqueItems",
        }
    }
}

impl std::fmt::Display for Misfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` does not apply to {}", self.bound.keyword(), self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Schema;

    #[test]
    fn lengths_land_on_strings_and_lists_and_misfits_name_the_kind() {
        let item = Schema::string();
        let mut list = Schema::list_of(item).kind;
        match Bound::MinLength.slot(&mut list) {
            Ok(Slot::Count(count)) => *count = Some(2),
            _ => panic!("a list carries an item count"),
        }
        let SchemaKind::List(l) = &list else { panic!("still a list") };
        assert_eq!(l.min_items, Some(2));

        let mut integer = Schema::integer().kind;
        let misfit = Bound::Pattern.slot(&mut integer).err().expect("an integer has no pattern");
        assert_eq!(misfit.to_string(), "`pattern` does not apply to integer");
        let misfit = Bound::Unique.slot(&mut Schema::string().kind).err().expect("no uniqueItems");
        assert_eq!(misfit.to_string(), "`uniqueItems` does not apply to string");
    }
}
