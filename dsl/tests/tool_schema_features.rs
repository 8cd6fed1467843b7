//! `ToolSchema` for the optional `chrono`, `uuid` and `url` types: strings with a format, and
//! values serde writes that conform to it.
#![cfg(all(feature = "chrono", feature = "uuid", feature = "url"))]

use tooldef::{SchemaKind, ToolSchema, schema_for};

fn format_of<T: ToolSchema>() -> Option<String> {
    match schema_for::<T>().0.kind {
        SchemaKind::String(s) => s.format.map(|f| f.into_owned()),
        other => panic!("expected a string, got {other:?}"),
    }
}

#[test]
fn formats() {
    assert_eq!(format_of::<chrono::DateTime<chrono::Utc>>().as_deref(), Some("date-time"));
    assert_eq!(format_of::<chrono::DateTime<chrono::FixedOffset>>().as_deref(), Some("date-time"));
    assert_eq!(format_of::<chrono::NaiveDate>().as_deref(), Some("date"));
    assert_eq!(format_of::<uuid::Uuid>().as_deref(), Some("uuid"));
    assert_eq!(format_of::<url::Url>().as_deref(), Some("uri"));
}

#[test]
fn values_round_trip_as_strings() {
    let at: chrono::DateTime<chrono::Utc> =
        serde_json::from_str("\"2024-05-01T10:00:00Z\"").unwrap();
    assert!(serde_json::to_value(at).unwrap().is_string());
    let id: uuid::Uuid = serde_json::from_str("\"67e55044-10b1-426f-9247-bb680e5fe0c8\"").unwrap();
    assert!(serde_json::to_value(id).unwrap().is_string());
    let u: url::Url = serde_json::from_str("\"https://example.com/a\"").unwrap();
    assert_eq!(serde_json::to_value(u).unwrap(), "https://example.com/a");
}
