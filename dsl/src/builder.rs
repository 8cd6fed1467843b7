//! The run-time builder: the same descriptor as the `const` DSL, from owned data computed at run
//! time, with every rule of [`crate::descriptor_rules`] returned as a `Result` instead of a compile error.

use std::borrow::Cow;

use crate::descriptor::{Annotations, Definition, NameError, Param, ToolDescriptor, ToolName};
use crate::descriptor_rules::DescriptorError;
use crate::extensions::Extensions;
use crate::literal::{Literal, Text};
use crate::schema::{
    Additional, EnumSchema, EnumValue, EnumValues, Scalar, Schema, SchemaKind, SchemaRef,
};

/// Why a run-time descriptor could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The name breaks the [`ToolName`] rule.
    #[error(transparent)]
    Name(#[from] NameError),
    /// A rule of [`crate::descriptor_rules`] is broken.
    #[error(transparent)]
    Invalid(#[from] DescriptorError),
}

/// Builds a [`ToolDescriptor`] from data computed at run time, with every rule of
/// [`crate::descriptor_rules`] returned as a `Result`.
///
/// ```
/// use tooldef::{Param, Schema, ToolDescriptor};
///
/// let unit_values = vec!["celsius".to_string(), "fahrenheit".to_string()];
/// let tool = ToolDescriptor::builder(format!("{}_weather", "get"))
///     .description("Get the current weather for a city.")
///     .param(Param::string("city").with_description("City name"))
///     .param(Param::named("unit", Schema::enumeration_of(unit_values)).with_default("celsius"))
///     .build()
///     .unwrap();
/// assert_eq!(tool.name, "get_weather");
/// assert!(!tool.param("unit").unwrap().required);
/// ```
#[derive(Debug, Clone)]
#[must_use = "a builder does nothing until `build` is called"]
pub struct ToolBuilder {
    name: Text,
    title: Option<Text>,
    description: Text,
    params: Vec<Param>,
    additional: Additional,
    definitions: Vec<Definition>,
    output: Option<Schema>,
    annotations: Annotations,
    input_examples: Vec<Literal>,
}

impl ToolDescriptor {
    /// Starts a run-time builder; the name is checked by [`ToolBuilder::build`].
    pub fn builder(name: impl Into<Text>) -> ToolBuilder {
        ToolBuilder {
            name: name.into(),
            title: None,
            description: Cow::Borrowed(""),
            params: Vec::new(),
            additional: Additional::Closed,
            definitions: Vec::new(),
            output: None,
            annotations: Annotations::NONE,
            input_examples: Vec::new(),
        }
    }
}

impl ToolBuilder {
    /// Sets the description.
    pub fn description(mut self, description: impl Into<Text>) -> Self {
        self.description = description.into();
        self
    }

    /// Sets the title.
    pub fn title(mut self, title: impl Into<Text>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Adds a parameter.
    pub fn param(mut self, param: Param) -> Self {
        self.params.push(param);
        self
    }

    /// Adds parameters.
    pub fn params(mut self, params: impl IntoIterator<Item = Param>) -> Self {
        self.params.extend(params);
        self
    }

    /// Adds a named definition.
    pub fn definition(mut self, definition: Definition) -> Self {
        self.definitions.push(definition);
        self
    }

    /// Sets the output schema.
    pub fn output(mut self, output: Schema) -> Self {
        self.output = Some(output);
        self
    }

    /// Sets the behaviour hints.
    pub fn annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = annotations;
        self
    }

    /// Sets what the input object accepts beyond the parameters.
    pub fn additional(mut self, additional: Additional) -> Self {
        self.additional = additional;
        self
    }

    /// Adds a whole example input (an object of parameter values), checked by
    /// [`build`](Self::build) against the parameters.
    pub fn input_example(mut self, example: impl Into<Literal>) -> Self {
        self.input_examples.push(example.into());
        self
    }

    /// Checks the name and every rule, and returns the descriptor.
    ///
    /// # Errors
    ///
    /// [`BuildError::Name`] for a bad name, [`BuildError::Invalid`] for a broken rule; the
    /// message names the tool, the parameter and the rule.
    pub fn build(self) -> Result<ToolDescriptor, BuildError> {
        let descriptor = ToolDescriptor {
            name: ToolName::parse(self.name)?,
            title: self.title,
            description: self.description,
            params: Cow::Owned(self.params),
            additional: self.additional,
            definitions: Cow::Owned(self.definitions),
            output: self.output.map(SchemaRef::new),
            annotations: self.annotations,
            input_kept: Vec::new(),
            extensions: Extensions::NONE,
            grammar: None,
            input_examples: Cow::Owned(self.input_examples),
            source: crate::SchemaSource::NONE,
        };
        descriptor.validate()?;
        Ok(descriptor)
    }
}

impl Schema {
    /// One of the given strings, computed at run time.
    pub fn enumeration_of<S: Into<Text>>(values: impl IntoIterator<Item = S>) -> Self {
        Schema::of(SchemaKind::Enum(EnumSchema {
            values: values
                .into_iter()
                .map(|v| EnumValue { value: Scalar::Str(v.into()), description: None })
                .collect::<EnumValues>(),
        }))
    }

    /// One of the given scalar values (strings, integers, numbers, booleans), computed at run
    /// time.
    ///
    /// ```
    /// use tooldef::{Schema, export_schema};
    ///
    /// let level = Schema::enumeration_of_scalars([1_i64, 2, 3]);
    /// assert_eq!(export_schema(&level, &[]), serde_json::json!({"type": "integer", "enum": [1, 2, 3]}));
    /// ```
    pub fn enumeration_of_scalars<S: Into<Scalar>>(values: impl IntoIterator<Item = S>) -> Self {
        Schema::of(SchemaKind::Enum(EnumSchema {
            values: values.into_iter().map(|v| EnumValue::scalar(v.into())).collect::<EnumValues>(),
        }))
    }

    /// Sets the description from owned text.
    pub fn with_description(mut self, description: impl Into<Text>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the title from owned text.
    pub fn with_title(mut self, title: impl Into<Text>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the default from any value convertible to a [`Literal`].
    pub fn with_default(mut self, value: impl Into<Literal>) -> Self {
        self.default = Some(value.into());
        self
    }

    /// Sets examples.
    pub fn with_examples(mut self, examples: Vec<Literal>) -> Self {
        self.examples = Cow::Owned(examples);
        self
    }
}

impl Param {
    /// Sets the description from owned text.
    pub fn with_description(mut self, description: impl Into<Text>) -> Self {
        self.schema.description = Some(description.into());
        self
    }

    /// Sets the title from owned text.
    pub fn with_title(mut self, title: impl Into<Text>) -> Self {
        self.schema.title = Some(title.into());
        self
    }

    /// Sets the default from any value convertible to a [`Literal`]; the key becomes optional.
    pub fn with_default(mut self, value: impl Into<Literal>) -> Self {
        self.schema.default = Some(value.into());
        self.required = false;
        self
    }

    /// Sets whether the key must be present.
    pub fn with_required(mut self, required: bool) -> Self {
        self.required = required;
        self
    }

    /// Sets a pattern from owned text (strings only; other kinds record a misuse).
    pub fn with_pattern(mut self, pattern: impl Into<Text>) -> Self {
        match &mut self.schema.kind {
            SchemaKind::String(s) => s.pattern = Some(pattern.into()),
            _ => self.misuse = Some("`pattern` applies only to string parameters"),
        }
        self
    }

    /// Sets a format from owned text (strings only; other kinds record a misuse).
    pub fn with_format(mut self, format: impl Into<Text>) -> Self {
        match &mut self.schema.kind {
            SchemaKind::String(s) => s.format = Some(format.into()),
            _ => self.misuse = Some("`format` applies only to string parameters"),
        }
        self
    }
}
