//! [`ToolSchema`](super::ToolSchema) for the standard library's types, `serde_json`'s and
//! `indexmap`'s, and (behind their features) `chrono`'s, `uuid`'s and `url`'s.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use super::{SchemaGen, Shape, ToolSchema};
use crate::schema::{Additional, ObjectSchema, Schema, SchemaKind, SchemaRef};

macro_rules! int_schema {
    ($($t:ty),*) => {$(
        impl ToolSchema for $t {
            // `u128::MAX` does not fit in `i128`: its bound saturates (literals are `i64`).
            const SHAPE: Shape = Shape::Integer {
                min: <$t>::MIN as i128,
                max: if <$t>::MAX as u128 > i128::MAX as u128 { i128::MAX } else { <$t>::MAX as i128 },
            };

            fn schema(_: &mut SchemaGen) -> Schema {
                let mut s = Schema::integer();
                if let SchemaKind::Integer(n) = &mut s.kind {
                    n.minimum = informative_bound(<$t>::MIN as i128);
                    n.maximum = informative_bound(<$t>::MAX as i128);
                }
                s
            }
        }
    )*};
}

int_schema!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

/// A natural bound of an integer type, when stating it tells the model something.
///
/// The bounds of the 8-, 16- and 32-bit types do (a `u8` stops at 255, an `i32` below a
/// millisecond timestamp), and so does the `0` of every unsigned type. The limits of the 64-bit
/// and wider types do not: no model approaches them, they cost about 45 bytes a parameter in
/// every request, and the decoder refuses a value out of the type's range either way. Bounds
/// are measured against the `u32` range, so `isize`/`usize` read as the 64-bit types they are
/// on every target tooldef supports.
const fn informative_bound(bound: i128) -> Option<i64> {
    if bound == 0 || (bound >= i32::MIN as i128 && bound <= u32::MAX as i128) {
        Some(bound as i64)
    } else {
        None
    }
}

macro_rules! nonzero_schema {
    ($($t:ty => $inner:ty),*) => {$(
        impl ToolSchema for $t {
            fn schema(cx: &mut SchemaGen) -> Schema {
                let mut s = <$inner>::schema(cx);
                if let SchemaKind::Integer(n) = &mut s.kind {
                    // Unsigned non-zero types start at 1; signed ones only exclude 0, which the
                    // IR cannot say, so they keep the natural bounds.
                    if n.minimum == Some(0) {
                        n.minimum = Some(1);
                    }
                }
                s
            }
        }
    )*};
}

nonzero_schema!(
    std::num::NonZeroU8 => u8, std::num::NonZeroU16 => u16, std::num::NonZeroU32 => u32,
    std::num::NonZeroU64 => u64, std::num::NonZeroUsize => usize
);

/// Types whose schema is one plain kind.
macro_rules! scalar_schema {
    ($($ty:ty => $shape:expr, $schema:expr;)*) => {$(
        impl ToolSchema for $ty {
            const SHAPE: Shape = $shape;

            fn schema(_: &mut SchemaGen) -> Schema {
                $schema
            }
        }
    )*};
}

scalar_schema!(
    f32 => Shape::Float, Schema::float();
    f64 => Shape::Float, Schema::float();
    bool => Shape::Boolean, Schema::boolean();
    String => Shape::String, Schema::string();
    str => Shape::String, Schema::string();
);

impl ToolSchema for char {
    const SHAPE: Shape = Shape::String;

    fn schema(_: &mut SchemaGen) -> Schema {
        let mut s = Schema::string();
        if let SchemaKind::String(st) = &mut s.kind {
            st.min_length = Some(1);
            st.max_length = Some(1);
        }
        s
    }
}

impl ToolSchema for () {
    fn schema(_: &mut SchemaGen) -> Schema {
        Schema::null()
    }
}

impl<T: ToolSchema> ToolSchema for Option<T> {
    const OPTIONAL: bool = true;
    const SHAPE: Shape = T::SHAPE;

    fn schema(cx: &mut SchemaGen) -> Schema {
        let mut s = T::schema(cx);
        s.nullable = true;
        s
    }
}

macro_rules! delegate_schema {
    ($($t:ident),*) => {$(
        impl<T: ToolSchema + ?Sized> ToolSchema for $t<T> {
            const OPTIONAL: bool = T::OPTIONAL;
            const SHAPE: Shape = T::SHAPE;

            fn schema(cx: &mut SchemaGen) -> Schema {
                T::schema(cx)
            }
        }
    )*};
}

delegate_schema!(Box, Arc, Rc);

impl<T: ToolSchema + ?Sized> ToolSchema for &T {
    const OPTIONAL: bool = T::OPTIONAL;
    const SHAPE: Shape = T::SHAPE;

    fn schema(cx: &mut SchemaGen) -> Schema {
        T::schema(cx)
    }
}

impl<T: ToolSchema + ToOwned + ?Sized> ToolSchema for Cow<'_, T> {
    const OPTIONAL: bool = T::OPTIONAL;
    const SHAPE: Shape = T::SHAPE;

    fn schema(cx: &mut SchemaGen) -> Schema {
        T::schema(cx)
    }
}

fn list(cx: &mut SchemaGen, items: fn(&mut SchemaGen) -> Schema, unique: bool) -> Schema {
    let mut s = Schema::list_of(items(cx));
    if let SchemaKind::List(l) = &mut s.kind {
        l.unique = unique;
    }
    s
}

macro_rules! list_schema {
    ($unique:expr => $($t:ident),*) => {$(
        impl<T: ToolSchema> ToolSchema for $t<T> {
            fn schema(cx: &mut SchemaGen) -> Schema {
                list(cx, T::schema, $unique)
            }
        }
    )*};
}

list_schema!(false => Vec, VecDeque, LinkedList);
list_schema!(true => BTreeSet);

impl<T: ToolSchema, S> ToolSchema for HashSet<T, S> {
    fn schema(cx: &mut SchemaGen) -> Schema {
        list(cx, T::schema, true)
    }
}

impl<T: ToolSchema> ToolSchema for [T] {
    fn schema(cx: &mut SchemaGen) -> Schema {
        list(cx, T::schema, false)
    }
}

impl<T: ToolSchema, const N: usize> ToolSchema for [T; N] {
    fn schema(cx: &mut SchemaGen) -> Schema {
        let mut s = list(cx, T::schema, false);
        if let SchemaKind::List(l) = &mut s.kind {
            l.min_items = Some(N as u64);
            l.max_items = Some(N as u64);
        }
        s
    }
}

/// A map key that JSON writes as an object key (a string).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a string map key",
    note = "maps have a tool schema only when their keys are strings"
)]
pub trait StringKey {}

impl StringKey for String {}
impl StringKey for str {}
impl StringKey for &str {}
impl StringKey for Cow<'_, str> {}
impl StringKey for Box<str> {}
impl StringKey for Arc<str> {}

fn map(cx: &mut SchemaGen, values: fn(&mut SchemaGen) -> Schema) -> Schema {
    Schema::of(SchemaKind::Object(ObjectSchema {
        properties: Cow::Borrowed(&[]),
        additional: Additional::Typed(SchemaRef::new(values(cx))),
    }))
}

impl<K: StringKey, V: ToolSchema, S> ToolSchema for HashMap<K, V, S> {
    fn schema(cx: &mut SchemaGen) -> Schema {
        map(cx, V::schema)
    }
}

impl<K: StringKey, V: ToolSchema> ToolSchema for BTreeMap<K, V> {
    fn schema(cx: &mut SchemaGen) -> Schema {
        map(cx, V::schema)
    }
}

impl<K: StringKey, V: ToolSchema, S> ToolSchema for indexmap::IndexMap<K, V, S> {
    fn schema(cx: &mut SchemaGen) -> Schema {
        map(cx, V::schema)
    }
}

impl<K: StringKey, V: ToolSchema> ToolSchema for serde_json::Map<K, V>
where
    serde_json::Map<K, V>: Sized,
{
    fn schema(cx: &mut SchemaGen) -> Schema {
        map(cx, V::schema)
    }
}

/// Any JSON value.
impl ToolSchema for serde_json::Value {
    fn schema(_: &mut SchemaGen) -> Schema {
        Schema::any()
    }
}

#[cfg(any(feature = "chrono", feature = "uuid", feature = "url"))]
fn formatted(format: &'static str) -> Schema {
    let mut s = Schema::string();
    if let SchemaKind::String(st) = &mut s.kind {
        st.format = Some(Cow::Borrowed(format));
    }
    s
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::{SchemaGen, Shape, ToolSchema, formatted};
    use crate::schema::Schema;

    impl<Tz: chrono::TimeZone> ToolSchema for chrono::DateTime<Tz> {
        const SHAPE: Shape = Shape::String;

        fn schema(_: &mut SchemaGen) -> Schema {
            formatted("date-time")
        }
    }

    impl ToolSchema for chrono::NaiveDate {
        const SHAPE: Shape = Shape::String;

        fn schema(_: &mut SchemaGen) -> Schema {
            formatted("date")
        }
    }

    impl ToolSchema for chrono::NaiveTime {
        const SHAPE: Shape = Shape::String;

        fn schema(_: &mut SchemaGen) -> Schema {
            formatted("time")
        }
    }
}

#[cfg(feature = "uuid")]
impl ToolSchema for uuid::Uuid {
    const SHAPE: Shape = Shape::String;

    fn schema(_: &mut SchemaGen) -> Schema {
        formatted("uuid")
    }
}

#[cfg(feature = "url")]
impl ToolSchema for url::Url {
    const SHAPE: Shape = Shape::String;

    fn schema(_: &mut SchemaGen) -> Schema {
        formatted("uri")
    }
}
