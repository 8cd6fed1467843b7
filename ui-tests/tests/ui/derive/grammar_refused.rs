// Each grammar is refused at compile time with the reason run time would give.

#[derive(tooldef::ToolGrammar)]
#[grammar(regex = "[A-Z]{3")]
struct Unclosed(String);

#[derive(tooldef::ToolGrammar)]
#[grammar(regex = "[a-z]+?")]
struct Lazy(String);

#[derive(tooldef::ToolGrammar)]
enum Twice {
    Celsius,
    #[grammar("celsius")]
    Other,
}

#[derive(tooldef::ToolGrammar)]
enum Payload {
    Text(String),
}

#[derive(tooldef::ToolGrammar)]
struct NoGrammar(String);

fn main() {}
