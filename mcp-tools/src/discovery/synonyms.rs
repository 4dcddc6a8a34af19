//! The everyday words for what APIs name with their own verbs and nouns: a user says "give
//! the money back" where the tool says `refund`, "stop" where it says `cancel`. A request's
//! words and word pairs are looked up here, and the other words of each set they belong to
//! join the query at a lower weight. The sets are general English about APIs and commerce,
//! not any one catalogue's; a word no tool uses costs nothing.

/// Sets of words and two-word phrases that mean the same to someone asking for a tool. The
/// first is the word APIs use.
pub(crate) const SETS: &[&[&str]] = &[
    // Verbs of operations.
    &[
        "create", "make", "new", "add", "open", "start", "set up", "setup", "generate", "issue", "register",
        "sign up", "begin",
    ],
    &[
        "retrieve", "get", "fetch", "show", "view", "see", "look up", "lookup", "read", "detail", "details",
        "info", "check", "inspect", "pull up",
    ],
    &[
        "list",
        "all",
        "every",
        "browse",
        "show all",
        "enumerate",
        "index",
        "overview",
    ],
    &["search", "find", "look for", "query", "locate", "filter"],
    &[
        "update", "change", "edit", "modify", "set", "adjust", "rename", "alter", "correct", "fix", "switch",
        "move",
    ],
    &[
        "delete", "remove", "erase", "destroy", "drop", "purge", "wipe", "get rid", "trash", "discard",
    ],
    &[
        "cancel",
        "stop",
        "end",
        "terminate",
        "kill",
        "abort",
        "halt",
        "quit",
        "call off",
        "unsubscribe",
    ],
    &[
        "refund",
        "give back",
        "money back",
        "pay back",
        "reimburse",
        "repay",
        "return money",
        "send back",
    ],
    &["void", "invalidate", "nullify", "annul", "scrap", "undo"],
    &["capture", "collect", "take", "claim"],
    &["confirm", "approve", "authorize", "accept", "allow", "ok"],
    &["decline", "reject", "deny", "refuse", "block"],
    &["finalize", "finish", "complete", "lock", "close out", "wrap up"],
    &["send", "email", "mail", "deliver", "notify", "remind", "forward"],
    &["pay", "settle", "pay off", "clear"],
    &["attach", "link", "connect", "associate", "hook up", "save"],
    &["detach", "unlink", "disconnect", "dissociate", "unhook"],
    &[
        "resume",
        "restart",
        "reactivate",
        "unpause",
        "continue",
        "reinstate",
        "turn back on",
    ],
    &["pause", "suspend", "hold", "freeze", "put on hold"],
    &[
        "expire",
        "invalidate",
        "kill",
        "deactivate",
        "disable",
        "turn off",
    ],
    &["reverse", "undo", "claw back", "pull back", "take back"],
    &["upload", "file", "attach"],
    &["download", "export", "report"],
    &["test", "try", "simulate", "trigger"],
    // Nouns of commerce.
    &[
        "customer",
        "client",
        "buyer",
        "shopper",
        "purchaser",
        "cust",
        "consumer",
        "user",
        "person",
        "people",
    ],
    &["charge", "payment", "transaction", "purchase", "sale"],
    &["invoice", "bill", "inv", "billing"],
    &[
        "subscription",
        "sub",
        "recurring",
        "membership",
        "plan",
        "monthly",
        "renewal",
    ],
    &[
        "payout",
        "withdraw",
        "withdrawal",
        "cash out",
        "bank transfer",
        "deposit",
    ],
    &["balance", "funds", "available", "how much"],
    &[
        "dispute",
        "chargeback",
        "contest",
        "fight",
        "challenge",
        "evidence",
    ],
    &[
        "product",
        "item",
        "good",
        "goods",
        "sku",
        "merchandise",
        "catalog",
    ],
    &["price", "cost", "pricing", "tier", "rate", "amount"],
    &["coupon", "discount", "promo", "deal", "voucher", "markdown"],
    &["checkout", "payment page", "pay page", "cart"],
    &["webhook", "endpoint", "callback", "hook", "notification url"],
    &["account", "merchant", "seller", "vendor", "connected account"],
    &["card", "credit card", "debit card", "plastic"],
    &[
        "reader",
        "terminal",
        "device",
        "pos",
        "point of sale",
        "card machine",
    ],
    &["quote", "estimate", "proposal", "offer"],
    &["tax", "vat", "gst", "sales tax"],
    &["credit note", "credit memo", "credit"],
    &["event", "activity", "log", "history", "happened"],
    &["fee", "commission", "cut"],
    &["address", "shipping", "delivery"],
    &["session", "visit"],
];

#[cfg(test)]
mod tests {
    use super::SETS;

    #[test]
    fn every_entry_is_a_lowercase_word_or_pair() {
        for set in SETS {
            assert!(set.len() >= 2, "{set:?} has nothing to stand for");
            for phrase in *set {
                let words: Vec<&str> = phrase.split(' ').collect();
                assert!(words.len() <= 3, "`{phrase}` is too long to look up");
                assert!(
                    phrase.chars().all(|c| c.is_ascii_lowercase() || c == ' '),
                    "`{phrase}` is not lowercase words"
                );
            }
        }
    }
}
