//! Name mapping end to end: a tool Bedrock refuses by name (a dot) renders under a safe name,
//! and the model's `toolUse` under that name reaches the tool under the original one.

use serde_json::json;
use tooldef::render::{LossPolicy, RenderRule, Renderer, render_mapped};
use tooldef_bedrock::{BedrockRenderer, tool_uses};
use tooldef_testkit::names::{
    assert_dispatched_under_original_names, dotted_tool, original_arguments,
};
use tooldef_testkit::specs::{assert_conforms, bedrock};

#[test]
fn mapped_names_go_out_safe_and_come_back_original() {
    let tool = dotted_tool();
    for renderer in [BedrockRenderer::new(), BedrockRenderer::strict()] {
        let err = renderer.render(&tool, LossPolicy::Allow).unwrap_err();
        assert_eq!(err.rule, RenderRule::Name);
        assert!(err.message.contains("^[a-zA-Z0-9_-]{1,64}$"), "{}", err.message);

        let set = render_mapped(&renderer, &[&tool], LossPolicy::Refuse).unwrap();
        let wire = set.rendered()[0].to_value();
        assert_conforms("Tool", bedrock::validate_tool(&wire));
        assert_eq!(wire["toolSpec"]["name"], "weather_get");

        let message = json!({"output": {"message": {"role": "assistant", "content": [
            {"toolUse": {"toolUseId": "tu_1", "name": "weather_get", "input": original_arguments()}}
        ]}}});
        let calls = set.names().restore_all(tool_uses(&message).unwrap());
        assert_dispatched_under_original_names(&calls[0]);
    }
}
