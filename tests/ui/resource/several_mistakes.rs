use mcp_toolkit::resource;

#[resource(uri = "users://{user_id}/{post}{?q}", annotations(read_only), title = "A", title = "B")]
fn profile(user_id: String, q: String, lang: String) -> String {
    user_id + &q + &lang
}

fn main() {}
