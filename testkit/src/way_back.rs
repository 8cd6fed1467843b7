//! The way back, end to end: the tools of issue 36 in each form they reach a host in (the
//! `const` builder, a spec file, an imported MCP tool's schema), and a model that obeys the
//! schema it was sent ([`obey`]): what it sends for a value, read from the rendered schema
//! alone (JSON Schema, or Gemini's OpenAPI `parameters` through [`openapi_to_json_schema`]).

use std::sync::Arc;

use serde_json::{Map, Value, json};
use tooldef::dispatch::DynamicTool;
use tooldef::spec::parse_spec;
use tooldef::{Executor, Param, ToolDescriptor};

/// `forecast(city, days = 3 in 1..=10, unit: "celsius" | "fahrenheit" | null)`, written with
/// the `const` builder (the README's example shape).
pub static FORECAST: ToolDescriptor =
    ToolDescriptor::new("forecast").description("Forecast the weather.").params(
        const {
            &[
                Param::string("city"),
                Param::integer("days").range(1, 10).default_int(3),
                Param::enumeration("unit", &["celsius", "fahrenheit"]).nullable().optional(),
            ]
        },
    );

/// The same `forecast` as a spec file.
pub const FORECAST_SPEC: &str = r#"{
  "name": "forecast",
  "description": "Forecast the weather.",
  "input_schema": {
    "type": "object",
    "properties": {
      "city": {"type": "string"},
      "days": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
      "unit": {"type": ["string", "null"], "enum": ["celsius", "fahrenheit", null]}
    },
    "required": ["city"]
  }
}"#;

/// The issue's spec-file and MCP tool: an integer enum, a string enum and a defaulted number,
/// all optional but `level`.
pub const SETTINGS_SPEC: &str = r#"{
  "name": "settings",
  "description": "Change the settings.",
  "input_schema": {
    "type": "object",
    "properties": {
      "level": {"type": "integer", "enum": [1, 2, 3]},
      "mode": {"type": "string", "enum": ["a", "b"]},
      "ratio": {"type": "number", "default": 0.5}
    },
    "required": ["level"]
  }
}"#;

/// The descriptor of a spec file's text.
///
/// # Panics
///
/// When the text is not a valid spec.
pub fn spec(text: &str) -> ToolDescriptor {
    parse_spec("tool.json", text, None).expect("a valid spec").descriptor
}

/// An executor of `descriptor` that answers with the arguments it received (defaults applied),
/// so that a test sees exactly what the tool was given.
pub fn echo(descriptor: ToolDescriptor) -> Arc<dyn Executor> {
    Arc::new(DynamicTool::new_sync(descriptor, Ok))
}

/// `schema` with `$ref`s resolved against `root` (`#/$defs/…`, `#/definitions/…`, `#`).
fn resolve<'v>(root: &'v Value, mut schema: &'v Value) -> &'v Value {
    for _ in 0..64 {
        let Some(target) = schema.get("$ref").and_then(Value::as_str) else { return schema };
        let Some(found) = target.strip_prefix('#').and_then(|p| root.pointer(&percent_decode(p)))
        else {
            return schema;
        };
        schema = found;
    }
    schema
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(h) = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(h);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a (resolved) rendered schema accepts `null` as it is written.
fn says_null(schema: &Value) -> bool {
    let type_null = match schema.get("type") {
        Some(Value::String(t)) => t.eq_ignore_ascii_case("null"),
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        _ => false,
    };
    type_null
        || schema.get("nullable") == Some(&Value::Bool(true))
        || ["anyOf", "oneOf"].iter().any(|k| {
            schema.get(*k).and_then(Value::as_array).is_some_and(|vs| {
                vs.iter().any(|v| v.get("type").and_then(Value::as_str) == Some("null"))
            })
        })
}

/// What a model that obeys the rendered parameter schema `parameters` sends for the argument
/// object `args`: where the schema lists a key as required and the value leaves it out, `null`
/// if the schema takes it (strict modes' "send null for absent"); where an enum lists only
/// strings, a value that is not a string as the string the enum lists for it; in a union, the
/// first variant whose form of the value `fits` it (`fits(schema, value)`, the schema resolved
/// against `parameters`). Everything else is sent as it is.
pub fn obey(parameters: &Value, args: &Value, fits: &dyn Fn(&Value, &Value) -> bool) -> Value {
    Encoder { root: parameters, fits, fill: true }.encode(parameters, args, 0)
}

/// [`obey`] for a value the schema refuses, which no obeying model sends: its values are
/// written as the schema writes them (an enum's strings), but nothing it leaves out is filled
/// in, so that what is wrong with it stays wrong.
pub fn spell(parameters: &Value, args: &Value, fits: &dyn Fn(&Value, &Value) -> bool) -> Value {
    Encoder { root: parameters, fits, fill: false }.encode(parameters, args, 0)
}

struct Encoder<'a> {
    root: &'a Value,
    fits: &'a dyn Fn(&Value, &Value) -> bool,
    /// Whether a required key left out is sent as `null` where the schema takes it.
    fill: bool,
}

impl Encoder<'_> {
    fn encode(&self, schema: &Value, v: &Value, depth: usize) -> Value {
        encode(self, schema, v, depth)
    }
}

fn encode(e: &Encoder<'_>, schema: &Value, v: &Value, depth: usize) -> Value {
    let (root, fits) = (e.root, e.fits);
    let schema = resolve(root, schema);
    if depth > 64 || v.is_null() {
        return v.clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(variants) = schema.get(key).and_then(Value::as_array) {
            for variant in variants {
                let sent = e.encode(variant, v, depth + 1);
                if fits(resolve(root, variant), &sent) {
                    return sent;
                }
            }
            return v.clone();
        }
    }
    match v {
        Value::Object(map) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut out = Map::new();
            // Keys in the order the schema lists them (as models write them), then the rest.
            if let Some(props) = props {
                for (name, sub) in props {
                    match map.get(name) {
                        Some(x) => {
                            out.insert(name.clone(), e.encode(sub, x, depth + 1));
                        }
                        None if e.fill
                            && required.contains(&name.as_str())
                            && says_null(resolve(root, sub)) =>
                        {
                            out.insert(name.clone(), Value::Null);
                        }
                        None => {}
                    }
                }
            }
            let extra = schema.get("additionalProperties").filter(|a| a.is_object());
            for (k, x) in map {
                if !out.contains_key(k) && !props.is_some_and(|p| p.contains_key(k)) {
                    let sent = match extra {
                        Some(s) => e.encode(s, x, depth + 1),
                        None => x.clone(),
                    };
                    out.insert(k.clone(), sent);
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            let item_schema = schema.get("items").filter(|i| i.is_object());
            Value::Array(
                items
                    .iter()
                    .map(|x| match item_schema {
                        Some(s) => e.encode(s, x, depth + 1),
                        None => x.clone(),
                    })
                    .collect(),
            )
        }
        Value::Number(_) | Value::Bool(_) => {
            let listed = schema.get("enum").and_then(Value::as_array);
            match listed {
                Some(values) if values.iter().all(|x| x.is_string() || x.is_null()) => {
                    let text = v.to_string();
                    if values.iter().any(|x| x.as_str() == Some(&text)) {
                        Value::String(text)
                    } else {
                        v.clone()
                    }
                }
                _ => v.clone(),
            }
        }
        _ => v.clone(),
    }
}

/// Gemini's OpenAPI `parameters` schema as the JSON Schema it stands for: lower-case types,
/// `nullable: true` as a `null` type (and a `null` among enum values), `propertyOrdering` and
/// the `enum` format left out.
pub fn openapi_to_json_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let nullable = map.get("nullable") == Some(&Value::Bool(true));
            let mut out = Map::new();
            for (k, v) in map {
                match k.as_str() {
                    "nullable" | "propertyOrdering" => {}
                    "format" if v == "enum" => {}
                    "type" => {
                        let t = Value::String(v.as_str().unwrap_or_default().to_ascii_lowercase());
                        out.insert(k.clone(), if nullable { json!([t, "null"]) } else { t });
                    }
                    "enum" => {
                        let mut values = v.as_array().cloned().unwrap_or_default();
                        if nullable {
                            values.push(Value::Null);
                        }
                        out.insert(k.clone(), Value::Array(values));
                    }
                    "properties" => {
                        let props = v
                            .as_object()
                            .map(|p| {
                                p.iter()
                                    .map(|(n, s)| (n.clone(), openapi_to_json_schema(s)))
                                    .collect()
                            })
                            .unwrap_or_default();
                        out.insert(k.clone(), Value::Object(props));
                    }
                    "items" => {
                        out.insert(k.clone(), openapi_to_json_schema(v));
                    }
                    "anyOf" => {
                        let mut variants: Vec<Value> = v
                            .as_array()
                            .map(|vs| vs.iter().map(openapi_to_json_schema).collect())
                            .unwrap_or_default();
                        if nullable {
                            variants.push(json!({"type": "null"}));
                        }
                        out.insert(k.clone(), Value::Array(variants));
                    }
                    _ => {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            // A nullable union says its type beside its variants: the variants decide.
            if nullable && out.contains_key("anyOf") {
                out.remove("type");
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// Whether `value` is valid for `schema`, a part of the rendered parameter schema `root`
/// (its `$defs` and `definitions` in scope), by the `jsonschema` crate (formats not checked).
///
/// # Panics
///
/// When the schema does not compile.
pub fn fits_json_schema(root: &Value, schema: &Value, value: &Value) -> bool {
    let mut wrapper = Map::new();
    for key in ["$defs", "definitions"] {
        if let Some(d) = root.get(key) {
            wrapper.insert(key.into(), d.clone());
        }
    }
    wrapper.insert("allOf".into(), json!([schema]));
    let validator = jsonschema::options()
        .should_validate_formats(false)
        .build(&Value::Object(wrapper))
        .unwrap_or_else(|e| panic!("the rendered schema does not compile: {e}\n{schema:#}"));
    validator.is_valid(value)
}

/// A provider's half of the loop, for [`round_trip`]: its renderer, where a tool's wire JSON
/// holds the parameter schema, the model's message calling a tool, and the provider crate's
/// call mapping.
pub struct Loop<'a> {
    /// The renderer.
    pub renderer: &'a dyn tooldef::Renderer,
    /// The JSON pointer of the parameter schema in one tool's wire JSON.
    pub parameters: &'a str,
    /// Whether the parameter schema is Gemini's OpenAPI form (read through
    /// [`openapi_to_json_schema`]).
    pub openapi: bool,
    /// The model's message calling the tool named first with the arguments given second.
    pub message: &'a dyn Fn(&str, &Value) -> Value,
    /// The provider crate's call mapping.
    pub calls: &'a dyn Fn(&Value) -> Result<Vec<tooldef::ToolCall>, tooldef::CallError>,
}

/// What one round trip gave: the arguments the model sent, and the text of the results of the
/// call through a `Toolbox` and through a registry (the same, or the test fails).
#[derive(Debug, Clone, PartialEq)]
pub struct Trip {
    /// The arguments as a model obeying the rendered schema sends them.
    pub sent: Value,
    /// Whether they fit the rendered schema (a value the tool refuses may not).
    pub fits: bool,
    /// The result's text.
    pub result: String,
    /// Whether the result is an error.
    pub is_error: bool,
}

/// Renders `executor`'s tool, lets a model that obeys the rendered schema call it with `args`
/// ([`obey`]), maps its message back with the provider crate, gives the call back through the
/// rendering's [`WayBack`](tooldef::WayBack), and dispatches it through a `Toolbox` and through
/// a registry.
///
/// # Panics
///
/// When the tool cannot be rendered, the message cannot be mapped, or the two dispatches
/// answer differently.
pub fn round_trip(l: &Loop<'_>, executor: Arc<dyn Executor>, args: &Value) -> Trip {
    use tooldef::{LossPolicy, Origin, RenderedSet, ToolRegistry, Toolbox};
    let descriptor = executor.descriptor().clone();
    let rendered = l
        .renderer
        .render(&descriptor, LossPolicy::Allow)
        .unwrap_or_else(|e| panic!("{}: {e}", l.renderer.name()));
    let wire = rendered.to_value();
    let params = wire.pointer(l.parameters).cloned().unwrap_or_else(|| json!({}));
    let params = if l.openapi { openapi_to_json_schema(&params) } else { params };
    let fits = |schema: &Value, value: &Value| fits_json_schema(&params, schema, value);
    let sent = obey(&params, args, &fits);
    let fits = fits_json_schema(&params, &params, &sent);
    let message = (l.message)(descriptor.name.as_str(), &sent);
    let calls = (l.calls)(&message).unwrap_or_else(|e| panic!("{message}: {e}"));
    let set = RenderedSet::new(vec![rendered]);
    let calls = set.restore_all(calls);
    assert_eq!(calls.len(), 1, "{message}");
    let toolbox = Toolbox::new().with_executor(Arc::clone(&executor));
    let by_toolbox = toolbox.call_blocking(&calls[0]);
    let registry = ToolRegistry::new();
    registry.register(executor, Origin::Core).expect("registered");
    let by_registry = registry.snapshot().call_blocking(&calls[0]);
    assert_eq!(by_toolbox, by_registry, "{}: toolbox and registry differ", l.renderer.name());
    Trip { sent, fits, result: by_toolbox.text(), is_error: by_toolbox.is_error }
}

/// How a provider's mode sends what the issue's tools leave out or list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    /// Every property is required (OpenAI strict): a left-out one is sent as `null`.
    pub all_required: bool,
    /// Enums are sent as strings (Gemini's OpenAPI `parameters`).
    pub string_enums: bool,
}

/// Asserts the issue's cases over one provider loop, each result compared whole: `typed` is
/// the README's `forecast` as a `#[tool]` (`fn forecast(city: String, #[param(default = 3,
/// range = 1..=10)] days: u8, unit: Option<Unit>) -> String` answering
/// `format!("{city}: {days} days, unit {unit:?}")`), then [`FORECAST`], [`FORECAST_SPEC`] and
/// [`SETTINGS_SPEC`] through [`echo`]: the left-out parameters get their defaults, an
/// `Option` is `None`, a value the tool refuses is refused with the pointer the model saw.
///
/// # Panics
///
/// When a case does not give what the contract says.
pub fn assert_issue_cases(l: &Loop<'_>, mode: Mode, typed: &dyn Fn() -> Arc<dyn Executor>) {
    let name = l.renderer.name();
    let ok = |sent: Value, result: &str| Trip {
        sent,
        fits: true,
        result: result.to_owned(),
        is_error: false,
    };
    let left_out = if mode.all_required {
        json!({"city": "Paris", "days": null, "unit": null})
    } else {
        json!({"city": "Paris"})
    };
    assert_eq!(
        round_trip(l, typed(), &json!({"city": "Paris"})),
        ok(left_out.clone(), "Paris: 3 days, unit None"),
        "{name}"
    );
    let given = json!({"city": "Paris", "days": 5, "unit": "celsius"});
    assert_eq!(
        round_trip(l, typed(), &given),
        ok(given.clone(), "Paris: 5 days, unit Some(Celsius)"),
        "{name}"
    );
    // `unit` takes `null` itself: where every key is listed its `null` keeps its meaning, the
    // one exception a strict mode makes.
    let received = if mode.all_required {
        r#"{"city":"Paris","days":3,"unit":null}"#
    } else {
        r#"{"city":"Paris","days":3}"#
    };
    for descriptor in [FORECAST.clone(), spec(FORECAST_SPEC)] {
        assert_eq!(
            round_trip(l, echo(descriptor), &json!({"city": "Paris"})),
            ok(left_out.clone(), received),
            "{name}"
        );
    }
    let level = if mode.string_enums { json!("2") } else { json!(2) };
    let sent = if mode.all_required {
        json!({"level": level, "mode": null, "ratio": null})
    } else {
        json!({"level": level})
    };
    assert_eq!(
        round_trip(l, echo(spec(SETTINGS_SPEC)), &json!({"level": 2})),
        ok(sent, r#"{"level":2,"ratio":0.5}"#),
        "{name}"
    );
    let given = json!({"level": 3, "mode": "b", "ratio": 0.25});
    let sent = if mode.string_enums {
        json!({"level": "3", "mode": "b", "ratio": 0.25})
    } else {
        given.clone()
    };
    assert_eq!(
        round_trip(l, echo(spec(SETTINGS_SPEC)), &given),
        ok(sent, r#"{"level":3,"mode":"b","ratio":0.25}"#),
        "{name}"
    );
    // Refused, each with the pointer the model saw.
    let refused = |trip: Trip| (trip.result, trip.is_error);
    assert_eq!(
        refused(round_trip(l, typed(), &json!({"city": "Paris", "days": 11}))),
        ("invalid arguments for forecast: /days must be at most 10; got 11".to_owned(), true),
        "{name}"
    );
    // A value outside an enum sent as strings has no string: the model's `4` is refused as it is.
    assert_eq!(
        refused(round_trip(l, echo(spec(SETTINGS_SPEC)), &json!({"level": 4}))),
        ("invalid arguments for settings: /level must be one of 1, 2, 3; got 4".to_owned(), true),
        "{name}"
    );
}
