//! `#[complete(..)]` on a prompt's arguments and a resource template's variables: a fn by
//! name or by path, beside `///`, `#[default(..)]`, optional and injected parameters; the
//! fn stays callable as written. A completion fn is the plain form (the typed value and the
//! arguments given) or takes injected values and then `Partial`, sync or `async`.
use mcp_toolkit::completion::Partial;
use mcp_toolkit::testing::ClientError;
use mcp_toolkit::{Context, Error, Server, State, ToolError, prompt, prompts, resource, resources};
use serde_json::{Map, Value};

struct Atlas(Vec<String>);

fn countries(atlas: State<Atlas>, _typed: Partial) -> Vec<String> {
    atlas.0.0.clone()
}

async fn regions(_atlas: State<Atlas>, _cx: Context, typed: Partial) -> Result<Vec<&'static str>, ToolError> {
    Ok(if typed.value().is_empty() { vec!["north", "south"] } else { Vec::new() })
}

/// Says where a region is.
#[prompt]
fn locate(#[complete(countries)] country: String, #[complete(regions)] region: String) -> String {
    format!("{region} of {country}")
}

fn cities(typed: &str, given: &Map<String, Value>) -> Vec<String> {
    let country = given.get("country").and_then(Value::as_str).unwrap_or("");
    vec![format!("{country}{typed}")]
}

mod catalog {
    use serde_json::{Map, Value};

    pub fn seasons(_typed: &str, _given: &Map<String, Value>) -> Vec<String> {
        ["spring", "summer"].map(str::to_owned).to_vec()
    }
}

/// Plans a trip.
#[prompt]
async fn plan_trip(
    /// Where to
    #[complete(cities)]
    city: String,
    #[default("summer".to_owned())]
    #[complete(catalog::seasons)]
    season: String,
    #[complete(crate::cities)] via: Option<String>,
    country: Option<String>,
    cx: Context,
) -> String {
    let _ = (cx, country);
    format!("{city} in {season} via {via:?}")
}

/// A city's guide.
#[resource(uri = "guides://{country}/{city}{?season}")]
async fn guide(
    /// The country
    country: String,
    /// The city
    #[complete(cities)]
    city: String,
    #[complete(catalog::seasons)] season: Option<String>,
    cx: Context,
) -> String {
    let _ = cx;
    format!("{city}, {country}, {season:?}")
}

fn main() {
    assert_eq!(resources![guide][0].uri(), "guides://{country}/{city}{?season}");
    let prompts = prompts![plan_trip];
    assert_eq!(prompts[0].arguments().len(), 4);
    assert_eq!(prompts[0].arguments()[0].description.as_deref(), Some("Where to"));
    assert_eq!(cities("Lis", &Map::new()), ["Lis"]);
    // The completion fns take the atlas: a server without it does not start.
    let refused = Server::new("trips", "1.0.0").prompts(prompts![locate]).test_client();
    assert!(matches!(
        refused,
        Err(ClientError::Server(Error::MissingState { ref needed_by, .. })) if needed_by == "locate"
    ));
}
