// `#[header("...")]` mistakes: names that are no header name, names taken twice, types no
// header carries, parameters that are not arguments, and malformed attributes.
// One module per mistake; one compile reports them all.

mod header_name_not_a_token {
    use mcp_toolkit::tool;

    /// Deploys to a region.
    #[tool]
    fn deploy(#[header("Cloud Region")] region: String) -> String {
        region
    }
}

mod header_name_empty {
    use mcp_toolkit::tool;

    /// Deploys to a region.
    #[tool]
    fn deploy(#[header("")] region: String) -> String {
        region
    }
}

mod header_name_with_separator_and_control_characters {
    use mcp_toolkit::tool;

    /// Deploys to a region.
    #[tool]
    fn deploy(#[header("Region:\r\nX-Injected")] region: String) -> String {
        region
    }
}

mod header_name_not_ascii {
    use mcp_toolkit::tool;

    /// Deploys to a region.
    #[tool]
    fn deploy(#[header("Région")] region: String) -> String {
        region
    }
}

mod header_names_equal_ignoring_case {
    use mcp_toolkit::tool;

    /// Copies between regions.
    #[tool]
    fn copy(#[header("Region")] from: String, #[header("REGION")] to: String) -> String {
        format!("{from} -> {to}")
    }
}

mod header_float {
    use mcp_toolkit::tool;

    /// Scales a value.
    #[tool]
    fn scale(#[header("Ratio")] ratio: f64, value: f64) -> f64 {
        ratio * value
    }
}

mod header_optional_float {
    use mcp_toolkit::tool;

    /// Scales a value.
    #[tool]
    fn scale(#[header("Ratio")] ratio: Option<f32>, value: f32) -> f32 {
        ratio.unwrap_or(1.0) * value
    }
}

mod header_float_alias {
    use mcp_toolkit::tool;

    type Ratio = f64;

    /// Scales a value.
    #[tool]
    fn scale(#[header("Ratio")] ratio: Ratio, value: f64) -> f64 {
        ratio * value
    }
}

mod header_struct {
    use mcp_toolkit::tool;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Target {
        region: String,
    }

    /// Deploys to a target.
    #[tool]
    fn deploy(#[header("Target")] target: Target) -> String {
        target.region
    }
}

mod header_list {
    use mcp_toolkit::tool;

    /// Deploys to regions.
    #[tool]
    fn deploy(#[header("Regions")] regions: Vec<String>) -> String {
        regions.join(",")
    }
}

mod header_on_context {
    use mcp_toolkit::{Context, tool};

    /// Deploys to a region.
    #[tool]
    fn deploy(#[header("Context")] cx: Context, region: String) -> String {
        drop(cx);
        region
    }
}

mod header_on_state {
    use mcp_toolkit::{State, tool};

    struct Config;

    /// Deploys to a region.
    #[tool]
    fn deploy(#[header("Config")] config: State<Config>, region: String) -> String {
        drop(config);
        region
    }
}

mod header_without_name {
    use mcp_toolkit::tool;

    /// Deploys to a region.
    #[tool]
    fn deploy(#[header] region: String) -> String {
        region
    }
}

mod header_name_not_a_string {
    use mcp_toolkit::tool;

    /// Deploys to a region.
    #[tool]
    fn deploy(#[header(Region)] region: String, #[header(7)] zone: u8) -> String {
        format!("{region}{zone}")
    }
}

mod header_twice_on_one_parameter {
    use mcp_toolkit::tool;

    /// Deploys to a region.
    #[tool]
    fn deploy(#[header("Region")] #[header("Zone")] region: String) -> String {
        region
    }
}

mod header_on_a_prompt {
    use mcp_toolkit::prompt;

    /// Asks about a region.
    #[prompt]
    fn ask(#[header("Region")] region: String) -> String {
        region
    }
}

mod header_mistakes_all_reported {
    use mcp_toolkit::tool;

    /// Copies between regions.
    #[tool]
    fn copy(
        #[header("From Region")] from: String,
        #[header("To")] to: String,
        #[header("to")] again: String,
        #[header("Ratio")] ratio: f64,
    ) -> String {
        format!("{from} -> {to} {again} {ratio}")
    }
}

fn main() {}
