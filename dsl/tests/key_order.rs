//! Spec files keep the order they were written in without serde_json's `preserve_order`
//! feature, which tooldef does not turn on (Cargo would turn it on for the user's whole build).

use std::borrow::Cow;

use tooldef::{Literal, SchemaKind, load_spec_file, parse_spec, spec_to_literal};

/// Properties out of alphabetical order, at the root, in a nested object and in a definition,
/// an object default with its keys out of order, and definitions out of order.
const SPEC: &str = r##"{
  "name": "book_trip",
  "description": "Book a trip.",
  "input_schema": {
    "type": "object",
    "properties": {
      "zone": {"type": "string"},
      "city": {"type": "string"},
      "options": {
        "type": "object",
        "properties": {"window": {"type": "boolean"}, "aisle": {"type": "boolean"}},
        "default": {"window": true, "aisle": false}
      },
      "traveller": {"$ref": "#/$defs/Traveller"},
      "budget": {"$ref": "#/$defs/Budget"}
    },
    "required": ["zone"],
    "$defs": {
      "Traveller": {"type": "object", "properties": {"surname": {"type": "string"}, "given": {"type": "string"}}},
      "Budget": {"type": "integer"}
    }
  }
}"##;

fn names(props: &[tooldef::Param]) -> Vec<&str> {
    props.iter().map(|p| p.name.as_ref()).collect()
}

#[test]
fn a_spec_keeps_the_order_its_properties_were_written_in() {
    let spec = parse_spec("book_trip.json", SPEC, None).unwrap();
    let d = &spec.descriptor;
    assert_eq!(names(&d.params), ["zone", "city", "options", "traveller", "budget"]);
    let SchemaKind::Object(options) = &d.param("options").unwrap().schema.kind else {
        panic!("an object")
    };
    assert_eq!(names(&options.properties), ["window", "aisle"]);
    let default = d.param("options").unwrap().schema.default.clone().unwrap();
    let expected = Literal::Object(Cow::Owned(vec![
        (Cow::Borrowed("window"), Literal::Bool(true)),
        (Cow::Borrowed("aisle"), Literal::Bool(false)),
    ]));
    assert_eq!(default, expected);
    let defs: Vec<&str> = d.definitions.iter().map(|d| d.name.as_ref()).collect();
    assert_eq!(defs, ["Traveller", "Budget"]);
    let SchemaKind::Object(traveller) = &d.definition("Traveller").unwrap().kind else {
        panic!("an object")
    };
    assert_eq!(names(&traveller.properties), ["surname", "given"]);
}

#[test]
fn a_spec_file_written_and_read_again_keeps_its_order() {
    let d = parse_spec("book_trip.json", SPEC, None).unwrap().descriptor;
    let text = serde_json::to_string_pretty(&spec_to_literal(&d, None)).unwrap();
    let zone = text.find("\"zone\"").unwrap();
    let city = text.find("\"city\"").unwrap();
    assert!(zone < city, "written in parameter order:\n{text}");
    let dir = std::env::temp_dir().join(format!("tooldef-key-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("book_trip.json");
    std::fs::write(&path, &text).unwrap();
    let back = load_spec_file(&path, None).unwrap().descriptor;
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(back, d);
}
