//! A tool's link to an [MCP Apps](crate::app) view: the view its results are shown in, and
//! who may see and call it. Both travel in `_meta.ui` in every protocol revision.

use super::Tool;
use crate::app::Audience;
use crate::error::DefinitionError;

impl Tool {
    /// The URI of the view the tool's results are shown in, if it is linked to one
    /// (`#[tool(app = "ui://..")]`).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools};
    ///
    /// /// Lists the notes; shown on the board in hosts that render apps.
    /// #[tool(app = "ui://notes/board")]
    /// fn list_notes() -> &'static str { "no notes yet" }
    ///
    /// assert_eq!(tools![list_notes][0].app(), Some("ui://notes/board"));
    /// ```
    pub fn app(&self) -> Option<&str> {
        self.def.app.as_deref()
    }

    /// Who may see and call the tool, when said (`#[tool(visibility = "app")]`); hosts take
    /// `None` for both the model and the views.
    pub fn app_visibility(&self) -> Option<&[Audience]> {
        self.def.app_visibility.as_deref()
    }

    /// Whether the model may see the tool: its visibility, when said, names
    /// [`Audience::Model`]. Tool search offers only such tools.
    pub fn visible_to_model(&self) -> bool {
        self.app_visibility()
            .is_none_or(|audiences| audiences.contains(&Audience::Model))
    }

    /// Links the tool to the view at `uri`, replacing any link it had: `_meta.ui.resourceUri`
    /// (and the flat `_meta["ui/resourceUri"]` older hosts read). A URI that is not a fixed
    /// `ui://` one is refused; a view the server does not serve stops it at start, naming
    /// the tool and the URI.
    ///
    /// ```
    /// use mcp_toolkit::Tool;
    /// use serde_json::json;
    ///
    /// let chart = Tool::from_json("chart", "Charts the sales.", json!({"type": "object"}), |_, _| async { "sales: up" })
    ///     .unwrap();
    /// assert_eq!(chart.clone().with_app("ui://sales/chart").unwrap().app(), Some("ui://sales/chart"));
    /// assert_eq!(
    ///     chart.with_app("https://example.com/chart").unwrap_err().to_string(),
    ///     "tool `chart`: `https://example.com/chart`: a view's URI starts with `ui://`, such as `ui://notes/board`"
    /// );
    /// ```
    pub fn with_app(mut self, uri: impl Into<String>) -> Result<Tool, DefinitionError> {
        let uri = uri.into();
        crate::app::check_uri(&uri, || format!("tool `{}`", self.def.name))?;
        let def = self.def_mut();
        def.app = Some(uri);
        def.app_meta = Some(crate::app::tool_meta(
            def.app.as_deref(),
            def.app_visibility.as_deref(),
        ));
        Ok(self)
    }

    /// Says who may see and call the tool (each audience once, in the order given): `[App]`
    /// keeps it out of the model's tool list in hosts that render apps, for a tool only a
    /// view calls.
    ///
    /// ```
    /// use mcp_toolkit::app::Audience;
    /// use mcp_toolkit::{protocol::ProtocolVersion, Tool};
    /// use serde_json::json;
    ///
    /// let add = Tool::from_json("board_add", "Adds a note from the board.", json!({"type": "object"}), |_, _| async { "added" })
    ///     .unwrap()
    ///     .with_app_visibility([Audience::App, Audience::App]);
    /// assert!(!add.visible_to_model());
    /// assert_eq!(add.definition(ProtocolVersion::V2024_11_05)["_meta"]["ui"]["visibility"], json!(["app"]));
    /// ```
    pub fn with_app_visibility(mut self, audiences: impl IntoIterator<Item = Audience>) -> Tool {
        let mut said: Vec<Audience> = Vec::new();
        for audience in audiences {
            if !said.contains(&audience) {
                said.push(audience);
            }
        }
        let def = self.def_mut();
        def.app_visibility = Some(said);
        def.app_meta = Some(crate::app::tool_meta(
            def.app.as_deref(),
            def.app_visibility.as_deref(),
        ));
        self
    }
}
