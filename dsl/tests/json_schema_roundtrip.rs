//! Export then import gives the same descriptor back, for generated descriptors; every exported
//! schema is valid JSON Schema 2020-12 (checked against the meta-schema); and the exported input
//! schema accepts the defaults and examples the IR declares.

use proptest::prelude::*;
use serde_json::Value;
use tooldef::json_schema::{
    KeyOrder, export_input, export_input_literal, export_output, export_output_literal,
    export_schema, export_schema_literal, import_input_ordered, import_schema_ordered,
};
use tooldef::{Literal, SchemaKind, ToolDescriptor, parse_spec, spec_to_literal};
use tooldef_testkit::strategy::{arb_descriptor, arb_schema};

fn assert_meta_valid(schema: &Value) {
    if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
        panic!("not valid against the 2020-12 meta-schema: {e}\n{schema:#}");
    }
}

/// The exported document as text and read back, with its key order (as a file is written and read).
fn through_text(exported: &Literal) -> (Value, KeyOrder) {
    let text = serde_json::to_string(exported).unwrap();
    KeyOrder::parse(text.as_bytes()).unwrap()
}

/// Import of the exported input and output gives back every schema part of the descriptor.
fn round_trip(d: &ToolDescriptor) -> Result<(), TestCaseError> {
    let (input, order) = through_text(&export_input_literal(d));
    let imported = import_input_ordered(&input, &order)
        .map_err(|e| TestCaseError::fail(format!("{e}\n{input:#}")))?;
    prop_assert_eq!(&imported.value.params, &d.params.to_vec());
    prop_assert_eq!(&imported.value.additional, &d.additional);
    prop_assert_eq!(&imported.value.definitions, &d.definitions.to_vec());
    prop_assert!(imported.notes.is_empty(), "unexpected notes: {:?}", imported.notes);
    if let Some(output) = export_output_literal(d) {
        let (output, order) = through_text(&output);
        let back = import_schema_ordered(&output, &order)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{output:#}")))?;
        prop_assert_eq!(&back.value.schema, d.output.as_deref().unwrap());
        for def in &back.value.definitions {
            prop_assert_eq!(Some(&def.schema), d.definition(&def.name));
        }
    }
    // Through spec file text (floats and escapes survive printing, properties keep their order).
    let text = serde_json::to_string_pretty(&spec_to_literal(d, None)).unwrap();
    let back =
        parse_spec("gen.json", &text, None).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back.descriptor, d);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_descriptors_survive_export_and_import(d in arb_descriptor()) {
        round_trip(&d)?;
    }

    #[test]
    fn exported_schemas_are_valid_json_schema(d in arb_descriptor()) {
        let input = export_input(&d);
        assert_meta_valid(&input);
        if let Some(output) = export_output(&d) {
            assert_meta_valid(&output);
        }
        // The exported input accepts an object built from the declared defaults.
        let validator = jsonschema::draft202012::new(&input).expect("compiles");
        for p in d.params.iter() {
            for value in p.schema.default.iter().chain(p.schema.examples.iter()) {
                let mut object = serde_json::Map::new();
                object.insert(p.name.to_string(), value.to_json());
                // Other required keys may be missing: only check this key's own errors.
                let instance = Value::Object(object);
                let key_errors: Vec<String> = validator
                    .iter_errors(&instance)
                    .filter(|e| e.instance_path().to_string().starts_with(&format!("/{}", tooldef::json_schema::pointer_token(&p.name))))
                    .map(|e| e.to_string())
                    .collect();
                prop_assert!(key_errors.is_empty(), "{} = {} rejected: {:?}\n{input:#}", p.name, value.to_json(), key_errors);
            }
        }
    }

    #[test]
    fn single_schemas_survive_export_and_import(s in arb_schema()) {
        let json = export_schema(&s, &[]);
        assert_meta_valid(&json);
        let (json, order) = through_text(&export_schema_literal(&s, &[]));
        let back = import_schema_ordered(&json, &order).map_err(|e| TestCaseError::fail(format!("{e}\n{json:#}")))?;
        prop_assert_eq!(&back.value.schema, &s);
        prop_assert!(back.value.definitions.is_empty());
        prop_assert!(!matches!(s.kind, SchemaKind::Ref(_)));
    }
}
