//! Example: tools defined once, with the `const` DSL, in a library crate. Any other crate (or a
//! build script, see `examples/build-export`) renders them for a provider; a mistake in a
//! definition (a bad name, a default outside its range) fails *this* crate's build.

use tooldef::{Param, ToolDescriptor};

/// `get_forecast`: a multi-day forecast for a city.
pub static GET_FORECAST: ToolDescriptor = ToolDescriptor::new("get_forecast")
    .title("Forecast")
    .description("Get the weather forecast for a city.")
    .params(
        const {
            &[
                Param::string("city").description("City name, e.g. \"Paris\"."),
                Param::enumeration("unit", &["celsius", "fahrenheit"])
                    .description("Temperature unit.")
                    .default_str("celsius"),
                Param::integer("days").description("Days of forecast.").range(1, 10).default_int(3),
            ]
        },
    );

/// `convert_temperature`: converts a temperature between units.
pub static CONVERT_TEMPERATURE: ToolDescriptor = ToolDescriptor::new("convert_temperature")
    .description("Convert a temperature between Celsius and Fahrenheit.")
    .params(
        const {
            &[
                Param::float("value").description("The temperature to convert."),
                Param::enumeration("to", &["celsius", "fahrenheit"]).description("Target unit."),
            ]
        },
    );

/// Every tool of this crate, in a stable order.
pub fn tools() -> [&'static ToolDescriptor; 2] {
    [&GET_FORECAST, &CONVERT_TEMPERATURE]
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_tool_is_valid() {
        for tool in super::tools() {
            assert_eq!(tool.validate(), Ok(()), "{}", tool.name);
        }
    }
}
