//! The payments example's data: a small shop's Stripe account held in memory, and the
//! generic operations every tool of the catalogue is made of (retrieve, list, search,
//! create, update, delete, move to another status).
//!
//! Everything is built the same way each time the process starts: no randomness, no clock.
//! Ids of new objects come from a counter, times from a fixed day (2026-01-01). Objects
//! are `serde_json` values shaped like Stripe's, with `id`, `object` and `created`.
//!
//! This file and `catalog.rs` are included by other programs with `#[path]` at their crate
//! root, so it names nothing outside itself but `mcp_toolkit` and `serde_json`.

use mcp_toolkit::ToolError;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{LazyLock, Mutex, MutexGuard, PoisonError};

/// What every tool of the catalogue answers: the object, or the list, as JSON text.
pub type Answer = Result<String, ToolError>;

/// 2026-01-01T00:00:00Z: the fixtures' "now", which the clock never moves.
pub const NOW: i64 = 1_767_225_600;

/// Declares the kinds of object the account holds: the variant, Stripe's `object` value,
/// the id prefix, the noun of messages, and the tool that lists them.
macro_rules! objects {
    ($($variant:ident => $object:literal, $prefix:literal, $noun:literal, $list:literal;)*) => {
        /// A kind of object the account holds.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        pub enum Object {
            $($variant,)*
        }

        impl Object {
            /// Stripe's `object` value (`customer`, `issuing.card`).
            fn name(self) -> &'static str {
                match self {
                    $(Object::$variant => $object,)*
                }
            }

            /// What ids of this kind start with, before the `_`.
            fn prefix(self) -> &'static str {
                match self {
                    $(Object::$variant => $prefix,)*
                }
            }

            /// The noun of messages (`customer`, `issuing card`).
            fn noun(self) -> &'static str {
                match self {
                    $(Object::$variant => $noun,)*
                }
            }

            /// The tool that lists the objects of this kind, for messages.
            fn list_tool(self) -> &'static str {
                match self {
                    $(Object::$variant => $list,)*
                }
            }
        }
    };
}

objects! {
    Customer => "customer", "cus", "customer", "list_customers";
    CustomerBalanceTransaction => "customer_balance_transaction", "cbtxn", "customer balance transaction", "list_customer_balance_transactions";
    PaymentIntent => "payment_intent", "pi", "payment intent", "list_payment_intents";
    Charge => "charge", "ch", "charge", "list_charges";
    PaymentMethod => "payment_method", "pm", "payment method", "list_payment_methods";
    SetupIntent => "setup_intent", "seti", "setup intent", "list_setup_intents";
    Refund => "refund", "re", "refund", "list_refunds";
    Dispute => "dispute", "dp", "dispute", "list_disputes";
    BalanceTransaction => "balance_transaction", "txn", "balance transaction", "list_balance_transactions";
    Payout => "payout", "po", "payout", "list_payouts";
    Product => "product", "prod", "product", "list_products";
    Price => "price", "price", "price", "list_prices";
    Plan => "plan", "plan", "plan", "list_plans";
    ShippingRate => "shipping_rate", "shr", "shipping rate", "list_shipping_rates";
    Invoice => "invoice", "in", "invoice", "list_invoices";
    InvoiceItem => "invoiceitem", "ii", "invoice item", "list_invoice_items";
    LineItem => "line_item", "il", "invoice line item", "list_invoice_line_items";
    CreditNote => "credit_note", "cn", "credit note", "list_credit_notes";
    Quote => "quote", "qt", "quote", "list_quotes";
    Subscription => "subscription", "sub", "subscription", "list_subscriptions";
    SubscriptionItem => "subscription_item", "si", "subscription item", "list_subscription_items";
    SubscriptionSchedule => "subscription_schedule", "sub_sched", "subscription schedule", "list_subscription_schedules";
    UsageRecord => "usage_record", "mbur", "usage record", "list_usage_record_summaries";
    Meter => "billing.meter", "mtr", "billing meter", "list_billing_meters";
    MeterEvent => "billing.meter_event", "mtrevt", "meter event", "list_billing_meters";
    Coupon => "coupon", "coupon", "coupon", "list_coupons";
    PromotionCode => "promotion_code", "promo", "promotion code", "list_promotion_codes";
    CheckoutSession => "checkout.session", "cs", "checkout session", "list_checkout_sessions";
    PaymentLink => "payment_link", "plink", "payment link", "list_payment_links";
    Account => "account", "acct", "connected account", "list_accounts";
    ExternalAccount => "bank_account", "ba", "external account", "list_external_accounts";
    Transfer => "transfer", "tr", "transfer", "list_transfers";
    TransferReversal => "transfer_reversal", "trr", "transfer reversal", "list_transfers";
    ApplicationFee => "application_fee", "fee", "application fee", "list_application_fees";
    FeeRefund => "fee_refund", "fr", "application fee refund", "list_application_fee_refunds";
    Cardholder => "issuing.cardholder", "ich", "cardholder", "list_cardholders";
    IssuingCard => "issuing.card", "ic", "issuing card", "list_issuing_cards";
    Authorization => "issuing.authorization", "iauth", "authorization", "list_authorizations";
    IssuingTransaction => "issuing.transaction", "ipi", "issuing transaction", "list_issuing_transactions";
    IssuingDispute => "issuing.dispute", "idp", "issuing dispute", "list_issuing_transactions";
    Reader => "terminal.reader", "tmr", "terminal reader", "list_terminal_readers";
    Location => "terminal.location", "tml", "terminal location", "list_terminal_locations";
    ReportType => "reporting.report_type", "", "report type", "list_report_types";
    ReportRun => "reporting.report_run", "frr", "report run", "list_report_runs";
    TaxRate => "tax_rate", "txr", "tax rate", "list_tax_rates";
    TaxId => "tax_id", "txi", "tax id", "list_tax_ids";
    TaxCode => "tax_code", "txcd", "tax code", "list_tax_codes";
    TaxCalculation => "tax.calculation", "taxcalc", "tax calculation", "list_tax_rates";
    WebhookEndpoint => "webhook_endpoint", "we", "webhook endpoint", "list_webhook_endpoints";
    Event => "event", "evt", "event", "list_events";
    File => "file", "file", "file", "list_files";
    FileLink => "file_link", "link", "file link", "list_file_links";
}

/// Every object of the account, by kind, oldest first; the account's balance; the counter
/// that numbers new objects.
struct Store {
    objects: BTreeMap<Object, Vec<Value>>,
    /// `{"usd": {"available": .., "pending": ..}, ..}`, in cents.
    balance: BTreeMap<String, (i64, i64)>,
    next: u64,
}

static STORE: LazyLock<Mutex<Store>> = LazyLock::new(|| Mutex::new(Store::seeded()));

fn store() -> MutexGuard<'static, Store> {
    STORE.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Store {
    /// A fresh id for an object of this kind: its prefix and 14 letters and digits mixed
    /// from the counter, so ids look like Stripe's and are the same on every run.
    fn new_id(&mut self, object: Object) -> String {
        self.next += 1;
        let mut x = self.next.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5851_F42D_4C95_7F2D;
        const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        let mut code = String::with_capacity(14);
        for _ in 0..14 {
            code.push(char::from(ALPHABET[(x % 62) as usize]));
            x /= 62;
            x ^= x.rotate_left(29).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        }
        format!("{}_{code}", object.prefix())
    }

    /// Adds an object given as its fields: `object` is set, and `created` when missing.
    fn put(&mut self, object: Object, mut value: Value) {
        let seq = self.objects.values().map(Vec::len).sum::<usize>() as i64;
        if let Some(fields) = value.as_object_mut() {
            fields.insert("object".into(), object.name().into());
            fields
                .entry("created")
                .or_insert_with(|| json!(NOW - 90 * 86_400 + seq * 7_200));
        }
        self.objects.entry(object).or_default().push(value);
    }

    fn find(&self, object: Object, id: &str) -> Option<&Value> {
        self.objects.get(&object)?.iter().find(|value| value["id"] == id)
    }

    fn find_mut(&mut self, object: Object, id: &str) -> Option<&mut Value> {
        self.objects
            .get_mut(&object)?
            .iter_mut()
            .find(|value| value["id"] == id)
    }

    fn get(&self, object: Object, id: &str) -> Result<&Value, ToolError> {
        self.find(object, id).ok_or_else(|| not_found(object, id))
    }

    fn get_mut(&mut self, object: Object, id: &str) -> Result<&mut Value, ToolError> {
        self.find_mut(object, id).ok_or_else(|| not_found(object, id))
    }
}

fn not_found(object: Object, id: &str) -> ToolError {
    ToolError::not_found(format!(
        "there is no {} `{id}`; `{}` shows the ones there are",
        object.noun(),
        object.list_tool()
    ))
}

/// The value as the text a tool answers with.
pub fn render(value: &Value) -> Answer {
    serde_json::to_string_pretty(value).map_err(|error| ToolError::internal(error.to_string()))
}

/// Copies the fields of `changes` that are not `null` into `target`.
fn merge(target: &mut Value, changes: Value) {
    if let (Some(target), Value::Object(changes)) = (target.as_object_mut(), changes) {
        for (key, value) in changes {
            if !value.is_null() {
                target.insert(key, value);
            }
        }
    }
}

/// The object with this id, as the tool's answer.
pub fn retrieve(object: Object, id: &str) -> Answer {
    render(store().get(object, id)?)
}

/// The object with this id, for a tool to look into before it acts.
pub fn require(object: Object, id: &str) -> Result<Value, ToolError> {
    store().get(object, id).cloned()
}

/// Whether a field of an object holds this value (a string, or a number or boolean written
/// as text).
fn field_is(value: &Value, field: &str, wanted: &str) -> bool {
    match &value[field] {
        Value::String(text) => text == wanted,
        Value::Bool(flag) => wanted.parse::<bool>() == Ok(*flag),
        Value::Number(number) => wanted.parse::<f64>().ok() == number.as_f64(),
        Value::Null | Value::Array(_) | Value::Object(_) => false,
    }
}

/// The objects of a kind whose fields match every filter that is given, newest first, at
/// most `limit` of them after the one named by `starting_after`, as a Stripe list.
pub fn list(
    object: Object,
    filters: &[(&str, Option<&str>)],
    limit: u64,
    starting_after: Option<&str>,
) -> Answer {
    let store = store();
    if let Some(after) = starting_after {
        store.get(object, after)?;
    }
    let matching = store
        .objects
        .get(&object)
        .into_iter()
        .flatten()
        .rev()
        .filter(|value| {
            filters
                .iter()
                .all(|(field, wanted)| wanted.is_none_or(|wanted| field_is(value, field, wanted)))
        })
        .skip_while(|value| starting_after.is_some_and(|after| value["id"] != after))
        .skip(usize::from(starting_after.is_some()));
    page(matching, limit)
}

/// At most `limit` (1 to 100) of these objects as a Stripe list: `data` and `has_more`.
fn page<'a>(objects: impl Iterator<Item = &'a Value>, limit: u64) -> Answer {
    if !(1..=100).contains(&limit) {
        return Err(ToolError::new(format!(
            "`limit` is {limit}; it must be between 1 and 100"
        )));
    }
    let mut objects = objects.peekable();
    let data: Vec<&Value> = objects.by_ref().take(limit as usize).collect();
    render(&json!({
        "object": "list",
        "data": data,
        "has_more": objects.peek().is_some(),
    }))
}

/// One condition of a search query: `field:'value'` (equal, any case), `field~'value'`
/// (contains), `field>n`, `field<n`, or a bare word found anywhere in the object.
enum Clause {
    Equals(String, String),
    Contains(String, String),
    Above(String, f64),
    Below(String, f64),
    Word(String),
}

/// Splits a search query into clauses; quotes keep spaces inside a value, `AND` is
/// skipped (every clause must hold).
fn clauses(query: &str) -> Result<Vec<Clause>, ToolError> {
    let mut terms = Vec::new();
    let mut term = String::new();
    let mut quote = None;
    for c in query.chars() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(open), c) if c == open => quote = None,
            (None, c) if c.is_whitespace() => terms.push(std::mem::take(&mut term)),
            (_, c) => term.push(c),
        }
    }
    terms.push(term);
    let mut clauses = Vec::new();
    for term in terms.into_iter().filter(|t| !t.is_empty() && t != "AND") {
        let clause = if let Some((field, value)) = term.split_once(':') {
            Clause::Equals(field.into(), value.to_lowercase())
        } else if let Some((field, value)) = term.split_once('~') {
            Clause::Contains(field.into(), value.to_lowercase())
        } else if let Some((field, value)) = term.split_once(['>', '<']) {
            let number = value.trim_start_matches('=').parse::<f64>().map_err(|_| {
                ToolError::new(format!(
                    "`{term}`: a comparison needs a number, as in `amount>1000`"
                ))
            })?;
            if term.contains('>') {
                Clause::Above(field.into(), number)
            } else {
                Clause::Below(field.into(), number)
            }
        } else {
            Clause::Word(term.to_lowercase())
        };
        clauses.push(clause);
    }
    Ok(clauses)
}

fn field_text(value: &Value, field: &str) -> String {
    match &value[field] {
        Value::String(text) => text.to_lowercase(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn holds(clause: &Clause, value: &Value, text: &str) -> bool {
    match clause {
        Clause::Equals(field, wanted) => field_text(value, field) == *wanted,
        Clause::Contains(field, wanted) => field_text(value, field).contains(wanted.as_str()),
        Clause::Above(field, n) => value[field].as_f64().is_some_and(|v| v > *n),
        Clause::Below(field, n) => value[field].as_f64().is_some_and(|v| v < *n),
        Clause::Word(word) => text.contains(word.as_str()),
    }
}

/// The objects of a kind that match a search query (see [`Clause`]), newest first.
pub fn search(object: Object, query: &str, limit: u64) -> Answer {
    let clauses = clauses(query)?;
    if clauses.is_empty() {
        return Err(ToolError::new(
            "`query` is empty; write e.g. `email:'ada@example.com'` or `name~'acme'`",
        ));
    }
    let store = store();
    let matching = store
        .objects
        .get(&object)
        .into_iter()
        .flatten()
        .rev()
        .filter(|value| {
            let text = value.to_string().to_lowercase();
            clauses.iter().all(|clause| holds(clause, value, &text))
        });
    page(matching, limit)
}

/// Adds an object of this kind with these fields (those that are `null` left out) and a
/// new id; answers with it.
pub fn create(object: Object, fields: Value) -> Answer {
    render(&insert(object, fields))
}

/// Adds an object as [`create`] does, and returns it.
pub fn insert(object: Object, fields: Value) -> Value {
    let mut store = store();
    let id = store.new_id(object);
    let created = NOW + store.next as i64 * 60;
    let mut value = json!({"id": id, "object": object.name(), "created": created});
    merge(&mut value, fields);
    store.put(object, value.clone());
    value
}

/// Changes the fields of an object that are given (not `null`); answers with the object.
pub fn update(object: Object, id: &str, changes: Value) -> Answer {
    let mut store = store();
    let value = store.get_mut(object, id)?;
    merge(value, changes);
    render(value)
}

/// Sets one field of an object to this value, `null` included; answers with the object.
pub fn set(object: Object, id: &str, field: &str, value: Value) -> Answer {
    let mut store = store();
    let record = store.get_mut(object, id)?;
    record[field] = value;
    render(record)
}

/// Removes an object; answers as Stripe does, `{"id", "object", "deleted": true}`.
pub fn delete(object: Object, id: &str) -> Answer {
    let mut store = store();
    store.get(object, id)?;
    if let Some(values) = store.objects.get_mut(&object) {
        values.retain(|value| value["id"] != id);
    }
    render(&json!({"id": id, "object": object.name(), "deleted": true}))
}

/// Changes an object whose `status` is one of `from` (the fields of `changes` that are
/// not `null`); otherwise says which statuses allow it to be `done`.
pub fn transition(object: Object, id: &str, done: &str, from: &[&str], changes: Value) -> Answer {
    let mut store = store();
    let value = store.get_mut(object, id)?;
    let status = value["status"].as_str().unwrap_or("unknown").to_owned();
    if !from.contains(&status.as_str()) {
        let quoted: Vec<String> = from.iter().map(|s| format!("`{s}`")).collect();
        let allowed = match quoted.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => quoted.join(""),
        };
        return Err(ToolError::new(format!(
            "{noun} `{id}` is `{status}`; only a {noun} that is {allowed} can be {done}",
            noun = object.noun(),
        )));
    }
    merge(value, changes);
    render(value)
}

/// What is still refundable of a charge, in cents: its amount less what was refunded.
pub fn refundable(charge: &Value) -> u64 {
    let amount = charge["amount"].as_u64().unwrap_or(0);
    amount.saturating_sub(charge["amount_refunded"].as_u64().unwrap_or(0))
}

/// Refunds part or all of a charge: the refund, and the charge's `amount_refunded`.
pub fn refund(charge: &str, amount: u64, reason: Option<&str>) -> Answer {
    let mut store = store();
    let (currency, payment_intent) = {
        let charge = store.get_mut(Object::Charge, charge)?;
        let total = charge["amount_refunded"].as_u64().unwrap_or(0) + amount;
        charge["amount_refunded"] = json!(total);
        charge["refunded"] = json!(Some(total) == charge["amount"].as_u64());
        (charge["currency"].clone(), charge["payment_intent"].clone())
    };
    let id = store.new_id(Object::Refund);
    let refund = json!({
        "id": id,
        "amount": amount,
        "charge": charge,
        "payment_intent": payment_intent,
        "currency": currency,
        "reason": reason,
        "status": "succeeded",
        "created": NOW + store.next as i64 * 60,
    });
    store.put(Object::Refund, refund.clone());
    render(&refund)
}

/// The account's balance: what is available and pending in each currency.
pub fn balance() -> Answer {
    let store = store();
    let side = |pick: fn(&(i64, i64)) -> i64| -> Vec<Value> {
        store
            .balance
            .iter()
            .map(|(currency, amounts)| json!({"amount": pick(amounts), "currency": currency}))
            .collect()
    };
    render(&json!({
        "object": "balance",
        "livemode": false,
        "available": side(|(available, _)| *available),
        "pending": side(|(_, pending)| *pending),
    }))
}

/// Takes `amount` from the available balance in `currency` for a payout; refuses more
/// than is available.
pub fn withdraw(amount: u64, currency: &str) -> Result<(), ToolError> {
    let mut store = store();
    let Some((available, _)) = store.balance.get_mut(currency) else {
        return Err(ToolError::new(format!(
            "the account holds no `{currency}`; `retrieve_balance` shows its currencies"
        )));
    };
    let wanted = i64::try_from(amount).unwrap_or(i64::MAX);
    if wanted > *available {
        return Err(ToolError::new(format!(
            "only {} {currency} is available, less than the {} asked for",
            money(*available),
            money(wanted)
        )));
    }
    *available -= wanted;
    Ok(())
}

/// Cents as `12.34`.
pub fn money(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    format!(
        "{sign}{}.{:02}",
        cents.unsigned_abs() / 100,
        cents.unsigned_abs() % 100
    )
}

/// A Unix time as `2026-01-03 14:00` (UTC).
fn date(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let seconds = unix.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        seconds / 3_600,
        seconds % 3_600 / 60
    )
}

/// The balance transactions, newest first, one line each: id, date, type, amount, fee,
/// net, status, source and description. Only those of `kind` and of `payout` when given.
pub fn balance_transactions(kind: Option<&str>, payout: Option<&str>, limit: u64) -> Answer {
    let store = store();
    if let Some(payout) = payout {
        store.get(Object::Payout, payout)?;
    }
    let mut text = String::new();
    let mut shown = 0;
    for txn in store
        .objects
        .get(&Object::BalanceTransaction)
        .into_iter()
        .flatten()
        .rev()
    {
        if kind.is_some_and(|kind| !field_is(txn, "type", kind))
            || payout.is_some_and(|payout| !field_is(txn, "payout", payout))
        {
            continue;
        }
        if shown == limit {
            break;
        }
        shown += 1;
        let cents = |field: &str| txn[field].as_i64().unwrap_or(0);
        let _ = writeln!(
            text,
            "{}  {}  {:<10} {:>10} {}  fee {:>6}  net {:>10}  {:<9}  {}  {}",
            txn["id"].as_str().unwrap_or_default(),
            date(txn["created"].as_i64().unwrap_or(NOW)),
            txn["type"].as_str().unwrap_or_default(),
            money(cents("amount")),
            txn["currency"].as_str().unwrap_or_default(),
            money(cents("fee")),
            money(cents("net")),
            txn["status"].as_str().unwrap_or_default(),
            txn["source"].as_str().unwrap_or("-"),
            txn["description"].as_str().unwrap_or_default(),
        );
    }
    if shown == 0 {
        text.push_str("no balance transactions match\n");
    }
    Ok(text)
}

/// The objects of a kind whose `field` is `id`, oldest first (an invoice's lines, a
/// subscription's items).
pub fn children(object: Object, field: &str, id: &str) -> Vec<Value> {
    store()
        .objects
        .get(&object)
        .into_iter()
        .flatten()
        .filter(|value| field_is(value, field, id))
        .cloned()
        .collect()
}

/// Refuses a value of a parameter that is not one of those accepted.
pub fn one_of(param: &str, value: Option<&str>, accepted: &[&str]) -> Result<(), ToolError> {
    match value {
        Some(value) if !accepted.contains(&value) => {
            let accepted: Vec<String> = accepted.iter().map(|a| format!("`{a}`")).collect();
            Err(ToolError::new(format!(
                "`{param}` is `{value}`; expected one of {}",
                accepted.join(", ")
            )))
        }
        _ => Ok(()),
    }
}

impl Store {
    /// The account on the morning of 2026-01-01.
    fn seeded() -> Store {
        let mut s = Store {
            objects: BTreeMap::new(),
            balance: BTreeMap::from([
                ("usd".to_owned(), (1_284_550, 98_120)),
                ("eur".to_owned(), (204_000, 12_500)),
            ]),
            next: 0,
        };
        s.seed_customers();
        s.seed_payments();
        s.seed_catalog();
        s.seed_billing();
        s.seed_connect();
        s.seed_issuing_and_terminal();
        s.seed_platform();
        s.seed_balance_transactions();
        s
    }

    fn seed_customers(&mut self) {
        use Object::*;
        for customer in [
            json!({"id": "cus_8Kd2", "name": "Maria Lopez", "email": "maria@lopezbakery.com", "description": "Lopez Bakery, weekly coffee orders", "phone": "+1 415 555 0134", "currency": "usd", "balance": 0, "delinquent": false, "address": {"city": "San Francisco", "country": "US", "state": "CA"}}),
            json!({"id": "cus_Acme01", "name": "Acme Corp", "email": "billing@acme.example", "description": "Team plan, 5 seats", "currency": "usd", "balance": -2000, "delinquent": false, "address": {"city": "Austin", "country": "US", "state": "TX"}}),
            json!({"id": "cus_3fQz", "name": "Jonas Weber", "email": "jonas@weber-design.de", "description": "Design studio in Berlin", "currency": "eur", "balance": 0, "delinquent": false, "address": {"city": "Berlin", "country": "DE"}}),
            json!({"id": "cus_7TtB", "name": "Priya Raman", "email": "priya@raman.io", "currency": "usd", "balance": 0, "delinquent": true, "address": {"city": "Seattle", "country": "US", "state": "WA"}}),
            json!({"id": "cus_Q1nx", "name": "Green Leaf Cafe", "email": "owner@greenleaf.example", "description": "Wholesale beans", "currency": "usd", "balance": 1500, "delinquent": false, "address": {"city": "Portland", "country": "US", "state": "OR"}}),
            json!({"id": "cus_Lm40", "name": "Tom Becker", "email": "tom.becker@example.com", "currency": "usd", "balance": 0, "delinquent": false, "discount": {"coupon": "WELCOME10"}}),
        ] {
            self.put(Customer, customer);
        }
        self.put(CustomerBalanceTransaction, json!({"id": "cbtxn_1Acme", "customer": "cus_Acme01", "amount": -2000, "currency": "usd", "type": "adjustment", "description": "Goodwill credit for the March outage", "ending_balance": -2000}));
        self.put(CustomerBalanceTransaction, json!({"id": "cbtxn_2Leaf", "customer": "cus_Q1nx", "amount": 1500, "currency": "usd", "type": "adjustment", "description": "Unpaid delivery fee", "ending_balance": 1500}));
    }

    fn seed_payments(&mut self) {
        use Object::*;
        for method in [
            json!({"id": "pm_4242", "type": "card", "customer": "cus_8Kd2", "card": {"brand": "visa", "last4": "4242", "exp_month": 8, "exp_year": 2028}, "billing_details": {"name": "Maria Lopez"}}),
            json!({"id": "pm_5556", "type": "card", "customer": "cus_Acme01", "card": {"brand": "mastercard", "last4": "5556", "exp_month": 2, "exp_year": 2027}, "billing_details": {"name": "Acme Corp"}}),
            json!({"id": "pm_Sepa3", "type": "sepa_debit", "customer": "cus_3fQz", "sepa_debit": {"bank_code": "37040044", "last4": "3000", "country": "DE"}, "billing_details": {"name": "Jonas Weber"}}),
            json!({"id": "pm_0341", "type": "card", "customer": "cus_7TtB", "card": {"brand": "amex", "last4": "0005", "exp_month": 1, "exp_year": 2026}, "billing_details": {"name": "Priya Raman"}}),
            json!({"id": "pm_1881", "type": "card", "customer": "cus_Q1nx", "card": {"brand": "visa", "last4": "1881", "exp_month": 11, "exp_year": 2029}, "billing_details": {"name": "Green Leaf Cafe"}}),
            json!({"id": "pm_Loose9", "type": "card", "customer": null, "card": {"brand": "visa", "last4": "9995", "exp_month": 5, "exp_year": 2027}, "billing_details": {"name": "Tom Becker"}}),
        ] {
            self.put(PaymentMethod, method);
        }
        for intent in [
            json!({"id": "pi_3Lx1", "amount": 2500, "currency": "usd", "customer": "cus_8Kd2", "payment_method": "pm_4242", "status": "succeeded", "latest_charge": "ch_3Lx1", "description": "Order #1042: two bags of house blend", "capture_method": "automatic"}),
            json!({"id": "pi_9Qa2", "amount": 12000, "currency": "usd", "customer": "cus_Acme01", "payment_method": "pm_5556", "status": "requires_capture", "latest_charge": "ch_9Qa2", "description": "Espresso machine rental deposit", "capture_method": "manual"}),
            json!({"id": "pi_5Rt7", "amount": 4900, "currency": "usd", "customer": "cus_7TtB", "payment_method": null, "status": "requires_payment_method", "latest_charge": null, "description": "Pro plan, January", "capture_method": "automatic"}),
            json!({"id": "pi_6Zz0", "amount": 15000, "currency": "usd", "customer": "cus_Q1nx", "payment_method": "pm_1881", "status": "succeeded", "latest_charge": "ch_6Zz0", "description": "Wholesale order #2210", "capture_method": "automatic"}),
            json!({"id": "pi_2Kw8", "amount": 8000, "currency": "usd", "customer": "cus_Q1nx", "payment_method": "pm_1881", "status": "succeeded", "latest_charge": "ch_1Dsp", "description": "Wholesale order #2188", "capture_method": "automatic"}),
            json!({"id": "pi_7Eur", "amount": 6400, "currency": "eur", "customer": "cus_3fQz", "payment_method": "pm_Sepa3", "status": "processing", "latest_charge": "ch_7Eur", "description": "Studio print run", "capture_method": "automatic"}),
            json!({"id": "pi_4Cnf", "amount": 1800, "currency": "usd", "customer": "cus_Lm40", "payment_method": "pm_Loose9", "status": "requires_confirmation", "latest_charge": null, "description": "Ceramic mug", "capture_method": "automatic"}),
        ] {
            self.put(PaymentIntent, intent);
        }
        for charge in [
            json!({"id": "ch_3Lx1", "amount": 2500, "amount_refunded": 500, "refunded": false, "captured": true, "paid": true, "currency": "usd", "customer": "cus_8Kd2", "payment_intent": "pi_3Lx1", "payment_method": "pm_4242", "status": "succeeded", "disputed": false, "description": "Order #1042: two bags of house blend", "receipt_email": "maria@lopezbakery.com"}),
            json!({"id": "ch_9Qa2", "amount": 12000, "amount_refunded": 0, "refunded": false, "captured": false, "paid": true, "currency": "usd", "customer": "cus_Acme01", "payment_intent": "pi_9Qa2", "payment_method": "pm_5556", "status": "succeeded", "disputed": false, "description": "Espresso machine rental deposit"}),
            json!({"id": "ch_6Zz0", "amount": 15000, "amount_refunded": 0, "refunded": false, "captured": true, "paid": true, "currency": "usd", "customer": "cus_Q1nx", "payment_intent": "pi_6Zz0", "payment_method": "pm_1881", "status": "succeeded", "disputed": false, "description": "Wholesale order #2210"}),
            json!({"id": "ch_1Dsp", "amount": 8000, "amount_refunded": 0, "refunded": false, "captured": true, "paid": true, "currency": "usd", "customer": "cus_Q1nx", "payment_intent": "pi_2Kw8", "payment_method": "pm_1881", "status": "succeeded", "disputed": true, "description": "Wholesale order #2188"}),
            json!({"id": "ch_7Eur", "amount": 6400, "amount_refunded": 0, "refunded": false, "captured": true, "paid": false, "currency": "eur", "customer": "cus_3fQz", "payment_intent": "pi_7Eur", "payment_method": "pm_Sepa3", "status": "pending", "disputed": false, "description": "Studio print run"}),
            json!({"id": "ch_Fail2", "amount": 4900, "amount_refunded": 0, "refunded": false, "captured": false, "paid": false, "currency": "usd", "customer": "cus_7TtB", "payment_intent": "pi_5Rt7", "payment_method": "pm_0341", "status": "failed", "failure_code": "expired_card", "disputed": false, "description": "Pro plan, January"}),
        ] {
            self.put(Charge, charge);
        }
        self.put(Refund, json!({"id": "re_1Ab", "amount": 500, "charge": "ch_3Lx1", "payment_intent": "pi_3Lx1", "currency": "usd", "reason": "requested_by_customer", "status": "succeeded"}));
        self.put(Dispute, json!({"id": "dp_1Dsp", "amount": 8000, "currency": "usd", "charge": "ch_1Dsp", "payment_intent": "pi_2Kw8", "reason": "product_not_received", "status": "needs_response", "evidence": {"customer_name": null, "shipping_tracking_number": null, "uncategorized_text": null}, "evidence_details": {"due_by": NOW + 9 * 86_400, "submission_count": 0}}));
        self.put(Dispute, json!({"id": "dp_0Old", "amount": 2200, "currency": "usd", "charge": "ch_3Lx1", "payment_intent": "pi_3Lx1", "reason": "duplicate", "status": "won", "evidence": {"uncategorized_text": "Two separate orders, receipts attached"}, "evidence_details": {"due_by": NOW - 40 * 86_400, "submission_count": 1}}));
        self.put(SetupIntent, json!({"id": "seti_1Save", "customer": "cus_8Kd2", "payment_method": "pm_4242", "status": "succeeded", "usage": "off_session"}));
        self.put(SetupIntent, json!({"id": "seti_2Wait", "customer": "cus_7TtB", "payment_method": null, "status": "requires_payment_method", "usage": "off_session"}));
        for payout in [
            json!({"id": "po_1Dec", "amount": 150_000, "currency": "usd", "status": "paid", "method": "standard", "arrival_date": NOW - 5 * 86_400, "destination": "ba_Main01", "description": "STRIPE PAYOUT"}),
            json!({"id": "po_2Jan", "amount": 42_000, "currency": "usd", "status": "pending", "method": "standard", "arrival_date": NOW + 2 * 86_400, "destination": "ba_Main01", "description": "STRIPE PAYOUT"}),
            json!({"id": "po_3Eur", "amount": 30_000, "currency": "eur", "status": "in_transit", "method": "standard", "arrival_date": NOW + 86_400, "destination": "ba_Eur02", "description": "STRIPE PAYOUT"}),
        ] {
            self.put(Payout, payout);
        }
    }

    fn seed_catalog(&mut self) {
        use Object::*;
        for product in [
            json!({"id": "prod_Coffee", "name": "Coffee subscription box", "description": "Two bags of fresh beans every month", "active": true, "default_price": "price_1Box", "tax_code": "txcd_99999999"}),
            json!({"id": "prod_Mug", "name": "Ceramic mug", "description": "12 oz stoneware mug with the shop's logo", "active": true, "default_price": "price_1Mug", "tax_code": "txcd_99999999"}),
            json!({"id": "prod_Pro", "name": "Pro plan", "description": "Online ordering for cafes, per seat", "active": true, "default_price": "price_1ProM", "tax_code": "txcd_10103001"}),
            json!({"id": "prod_Grinder", "name": "Burr grinder", "description": "Discontinued hand grinder", "active": false, "default_price": "price_1Grind", "tax_code": "txcd_99999999"}),
        ] {
            self.put(Product, product);
        }
        for price in [
            json!({"id": "price_1Box", "product": "prod_Coffee", "unit_amount": 2900, "currency": "usd", "type": "recurring", "recurring": {"interval": "month", "interval_count": 1}, "active": true, "nickname": "Monthly box", "lookup_key": "box_monthly"}),
            json!({"id": "price_1Mug", "product": "prod_Mug", "unit_amount": 1800, "currency": "usd", "type": "one_time", "recurring": null, "active": true, "nickname": "Mug", "lookup_key": "mug"}),
            json!({"id": "price_1ProM", "product": "prod_Pro", "unit_amount": 4900, "currency": "usd", "type": "recurring", "recurring": {"interval": "month", "interval_count": 1}, "active": true, "nickname": "Pro monthly", "lookup_key": "pro_monthly"}),
            json!({"id": "price_1ProY", "product": "prod_Pro", "unit_amount": 49_000, "currency": "usd", "type": "recurring", "recurring": {"interval": "year", "interval_count": 1}, "active": true, "nickname": "Pro yearly", "lookup_key": "pro_yearly"}),
            json!({"id": "price_1Grind", "product": "prod_Grinder", "unit_amount": 8900, "currency": "usd", "type": "one_time", "recurring": null, "active": false, "nickname": "Grinder", "lookup_key": null}),
        ] {
            self.put(Price, price);
        }
        self.put(Plan, json!({"id": "plan_ProLegacy", "product": "prod_Pro", "amount": 3900, "currency": "usd", "interval": "month", "active": true, "nickname": "Pro (2023 price)"}));
        self.put(ShippingRate, json!({"id": "shr_Std", "display_name": "Standard shipping", "type": "fixed_amount", "fixed_amount": {"amount": 500, "currency": "usd"}, "delivery_estimate": {"minimum": {"unit": "business_day", "value": 3}, "maximum": {"unit": "business_day", "value": 5}}, "active": true}));
        self.put(ShippingRate, json!({"id": "shr_Exp", "display_name": "Express shipping", "type": "fixed_amount", "fixed_amount": {"amount": 1500, "currency": "usd"}, "delivery_estimate": {"minimum": {"unit": "business_day", "value": 1}, "maximum": {"unit": "business_day", "value": 1}}, "active": true}));
        self.put(Coupon, json!({"id": "SUMMER25", "name": "Summer sale", "percent_off": 25.0, "amount_off": null, "currency": null, "duration": "once", "valid": true, "times_redeemed": 14, "max_redemptions": 100}));
        self.put(Coupon, json!({"id": "WELCOME10", "name": "Welcome", "percent_off": null, "amount_off": 1000, "currency": "usd", "duration": "once", "valid": true, "times_redeemed": 52, "max_redemptions": null}));
        self.put(PromotionCode, json!({"id": "promo_Summer", "code": "SUNNY25", "coupon": "SUMMER25", "active": true, "times_redeemed": 9, "max_redemptions": 50, "customer": null}));
        self.put(PromotionCode, json!({"id": "promo_Hello", "code": "HELLO10", "coupon": "WELCOME10", "active": true, "times_redeemed": 40, "max_redemptions": null, "customer": null}));
        self.put(CheckoutSession, json!({"id": "cs_test_a1Open", "mode": "payment", "status": "open", "payment_status": "unpaid", "customer": "cus_Lm40", "amount_total": 1800, "currency": "usd", "url": "https://checkout.stripe.com/c/pay/cs_test_a1Open", "line_items": [{"price": "price_1Mug", "quantity": 1, "amount_total": 1800}]}));
        self.put(CheckoutSession, json!({"id": "cs_test_b2Done", "mode": "subscription", "status": "complete", "payment_status": "paid", "customer": "cus_8Kd2", "amount_total": 2900, "currency": "usd", "url": null, "subscription": "sub_8Kd2Box", "line_items": [{"price": "price_1Box", "quantity": 1, "amount_total": 2900}]}));
        self.put(PaymentLink, json!({"id": "plink_Mug", "url": "https://buy.stripe.com/test_mug", "active": true, "line_items": [{"price": "price_1Mug", "quantity": 1}], "allow_promotion_codes": true}));
        self.put(PaymentLink, json!({"id": "plink_Box", "url": "https://buy.stripe.com/test_box", "active": true, "line_items": [{"price": "price_1Box", "quantity": 1}], "allow_promotion_codes": false}));
    }

    fn seed_billing(&mut self) {
        use Object::*;
        for invoice in [
            json!({"id": "in_44A", "customer": "cus_Acme01", "status": "open", "amount_due": 24_500, "amount_paid": 0, "currency": "usd", "collection_method": "send_invoice", "due_date": NOW + 14 * 86_400, "subscription": "sub_Acme1", "number": "SHOP-0044", "description": "Pro plan, 5 seats, January"}),
            json!({"id": "in_12B", "customer": "cus_8Kd2", "status": "paid", "amount_due": 2900, "amount_paid": 2900, "currency": "usd", "collection_method": "charge_automatically", "due_date": null, "subscription": "sub_8Kd2Box", "number": "SHOP-0012", "description": "Coffee box, December"}),
            json!({"id": "in_77C", "customer": "cus_7TtB", "status": "draft", "amount_due": 9900, "amount_paid": 0, "currency": "usd", "collection_method": "charge_automatically", "due_date": null, "subscription": null, "number": null, "description": "Onboarding session"}),
            json!({"id": "in_90D", "customer": "cus_Q1nx", "status": "open", "amount_due": 5800, "amount_paid": 0, "currency": "usd", "collection_method": "send_invoice", "due_date": NOW - 20 * 86_400, "subscription": null, "number": "SHOP-0090", "description": "Wholesale beans, November"}),
            json!({"id": "in_31E", "customer": "cus_7TtB", "status": "uncollectible", "amount_due": 4900, "amount_paid": 0, "currency": "usd", "collection_method": "charge_automatically", "due_date": null, "subscription": "sub_7TtB", "number": "SHOP-0031", "description": "Pro plan, October"}),
        ] {
            self.put(Invoice, invoice);
        }
        for line in [
            json!({"id": "il_44A1", "invoice": "in_44A", "description": "5 × Pro plan (Jan 1 – Feb 1)", "amount": 24_500, "quantity": 5, "price": "price_1ProM"}),
            json!({"id": "il_12B1", "invoice": "in_12B", "description": "Coffee subscription box (Dec)", "amount": 2900, "quantity": 1, "price": "price_1Box"}),
            json!({"id": "il_77C1", "invoice": "in_77C", "description": "Onboarding session", "amount": 9900, "quantity": 1, "price": null}),
            json!({"id": "il_90D1", "invoice": "in_90D", "description": "Wholesale beans, 20 kg", "amount": 5800, "quantity": 1, "price": null}),
        ] {
            self.put(LineItem, line);
        }
        self.put(InvoiceItem, json!({"id": "ii_Onboard", "customer": "cus_7TtB", "invoice": "in_77C", "amount": 9900, "currency": "usd", "description": "Onboarding session", "quantity": 1}));
        self.put(InvoiceItem, json!({"id": "ii_Pending", "customer": "cus_Acme01", "invoice": null, "amount": 5000, "currency": "usd", "description": "Extra barista training hour", "quantity": 1}));
        self.put(CreditNote, json!({"id": "cn_1Late", "invoice": "in_12B", "customer": "cus_8Kd2", "amount": 500, "currency": "usd", "reason": "order_change", "status": "issued", "memo": "One bag arrived late"}));
        self.put(Quote, json!({"id": "qt_Acme2", "customer": "cus_Acme01", "status": "draft", "amount_total": 120_000, "currency": "usd", "description": "Pro plan for 20 locations, yearly", "expires_at": NOW + 30 * 86_400, "line_items": [{"price": "price_1ProY", "quantity": 20}]}));
        self.put(Quote, json!({"id": "qt_Leaf1", "customer": "cus_Q1nx", "status": "open", "amount_total": 34_800, "currency": "usd", "description": "12 coffee boxes", "expires_at": NOW + 10 * 86_400, "line_items": [{"price": "price_1Box", "quantity": 12}]}));
        for subscription in [
            json!({"id": "sub_Acme1", "customer": "cus_Acme01", "status": "active", "items": ["si_Acme1"], "current_period_end": NOW + 31 * 86_400, "cancel_at_period_end": false, "collection_method": "send_invoice", "default_payment_method": "pm_5556"}),
            json!({"id": "sub_8Kd2Box", "customer": "cus_8Kd2", "status": "active", "items": ["si_8Kd2Box"], "current_period_end": NOW + 12 * 86_400, "cancel_at_period_end": false, "collection_method": "charge_automatically", "default_payment_method": "pm_4242"}),
            json!({"id": "sub_7TtB", "customer": "cus_7TtB", "status": "past_due", "items": ["si_7TtB"], "current_period_end": NOW + 3 * 86_400, "cancel_at_period_end": false, "collection_method": "charge_automatically", "default_payment_method": "pm_0341"}),
            json!({"id": "sub_3fQzPause", "customer": "cus_3fQz", "status": "paused", "items": ["si_3fQz"], "current_period_end": NOW + 20 * 86_400, "cancel_at_period_end": false, "collection_method": "charge_automatically", "default_payment_method": "pm_Sepa3"}),
        ] {
            self.put(Subscription, subscription);
        }
        for item in [
            json!({"id": "si_Acme1", "subscription": "sub_Acme1", "price": "price_1ProM", "quantity": 5}),
            json!({"id": "si_8Kd2Box", "subscription": "sub_8Kd2Box", "price": "price_1Box", "quantity": 1}),
            json!({"id": "si_7TtB", "subscription": "sub_7TtB", "price": "price_1ProM", "quantity": 1}),
            json!({"id": "si_3fQz", "subscription": "sub_3fQzPause", "price": "price_1Box", "quantity": 2}),
        ] {
            self.put(SubscriptionItem, item);
        }
        self.put(SubscriptionSchedule, json!({"id": "sub_sched_Leaf", "customer": "cus_Q1nx", "status": "not_started", "end_behavior": "release", "phases": [{"start_date": NOW + 31 * 86_400, "items": [{"price": "price_1ProY", "quantity": 1}], "iterations": 1}], "subscription": null}));
        self.put(Meter, json!({"id": "mtr_Orders", "display_name": "Online orders", "event_name": "online_order", "status": "active", "default_aggregation": {"formula": "count"}}));
        self.put(UsageRecord, json!({"id": "mbur_First", "subscription_item": "si_Acme1", "quantity": 120, "timestamp": NOW - 86_400, "action": "increment"}));
    }

    fn seed_connect(&mut self) {
        use Object::*;
        self.put(Account, json!({"id": "acct_1Sunny", "type": "express", "email": "hello@sunnyroasters.example", "country": "US", "business_profile": {"name": "Sunny Roasters"}, "charges_enabled": true, "payouts_enabled": true, "details_submitted": true}));
        self.put(Account, json!({"id": "acct_2Studio", "type": "standard", "email": "studio@potterylane.example", "country": "US", "business_profile": {"name": "Pottery Lane Studio"}, "charges_enabled": false, "payouts_enabled": false, "details_submitted": false}));
        self.put(ExternalAccount, json!({"id": "ba_Main01", "account": "acct_1Sunny", "bank_name": "STRIPE TEST BANK", "last4": "6789", "currency": "usd", "country": "US", "default_for_currency": true, "status": "verified"}));
        self.put(ExternalAccount, json!({"id": "ba_Eur02", "account": "acct_1Sunny", "bank_name": "Berliner Testbank", "last4": "3000", "currency": "eur", "country": "DE", "default_for_currency": true, "status": "verified"}));
        self.put(Transfer, json!({"id": "tr_1Beans", "amount": 60_000, "currency": "usd", "destination": "acct_1Sunny", "amount_reversed": 0, "reversed": false, "description": "December bean sales", "transfer_group": "ORDER_2210"}));
        self.put(Transfer, json!({"id": "tr_2Mugs", "amount": 12_000, "currency": "usd", "destination": "acct_2Studio", "amount_reversed": 0, "reversed": false, "description": "Mug consignment", "transfer_group": null}));
        self.put(ApplicationFee, json!({"id": "fee_1Sunny", "account": "acct_1Sunny", "amount": 1500, "amount_refunded": 0, "currency": "usd", "charge": "ch_6Zz0", "refunded": false}));
    }

    fn seed_issuing_and_terminal(&mut self) {
        use Object::*;
        self.put(Cardholder, json!({"id": "ich_Jenny", "type": "individual", "name": "Jenny Rosen", "email": "jenny@lopezbakery.com", "status": "active", "billing": {"address": {"city": "San Francisco", "country": "US"}}, "spending_controls": {"spending_limits": [{"amount": 50_000, "interval": "monthly"}]}}));
        self.put(Cardholder, json!({"id": "ich_Van", "type": "company", "name": "Delivery Van", "email": "fleet@shop.example", "status": "active", "billing": {"address": {"city": "Oakland", "country": "US"}}, "spending_controls": {"spending_limits": []}}));
        self.put(IssuingCard, json!({"id": "ic_Jenny1", "cardholder": "ich_Jenny", "type": "virtual", "brand": "Visa", "last4": "0005", "status": "active", "currency": "usd", "spending_controls": {"spending_limits": [{"amount": 20_000, "interval": "daily"}]}}));
        self.put(IssuingCard, json!({"id": "ic_Van2", "cardholder": "ich_Van", "type": "physical", "brand": "Visa", "last4": "4410", "status": "inactive", "currency": "usd", "spending_controls": {"spending_limits": []}}));
        self.put(Authorization, json!({"id": "iauth_Pend1", "card": "ic_Jenny1", "cardholder": "ich_Jenny", "amount": 4200, "currency": "usd", "status": "pending", "approved": false, "merchant_data": {"name": "Bay Restaurant Supply", "category": "wholesale_clubs"}}));
        self.put(Authorization, json!({"id": "iauth_Done2", "card": "ic_Van2", "cardholder": "ich_Van", "amount": 6100, "currency": "usd", "status": "closed", "approved": true, "merchant_data": {"name": "Shell Oakland", "category": "service_stations"}}));
        self.put(IssuingTransaction, json!({"id": "ipi_Fuel", "card": "ic_Van2", "cardholder": "ich_Van", "authorization": "iauth_Done2", "amount": -6100, "currency": "usd", "type": "capture", "merchant_data": {"name": "Shell Oakland"}}));
        self.put(Location, json!({"id": "tml_Main", "display_name": "Main Street shop", "address": {"line1": "12 Main St", "city": "San Francisco", "country": "US", "postal_code": "94105"}}));
        self.put(Reader, json!({"id": "tmr_Front", "label": "Front counter", "device_type": "bbpos_wisepos_e", "location": "tml_Main", "status": "online", "serial_number": "WSC513105011295", "action": null}));
        self.put(Reader, json!({"id": "tmr_Patio", "label": "Patio", "device_type": "stripe_m2", "location": "tml_Main", "status": "offline", "serial_number": "STRM26138003393", "action": null}));
    }

    fn seed_platform(&mut self) {
        use Object::*;
        for (id, name, category) in [
            ("balance.summary.1", "Balance summary", "balance"),
            (
                "balance_change_from_activity.itemized.1",
                "Balance change from activity, itemized",
                "balance",
            ),
            ("payouts.itemized.3", "Payouts, itemized", "payouts"),
            (
                "payout_reconciliation.itemized.5",
                "Payout reconciliation, itemized",
                "payout_reconciliation",
            ),
        ] {
            self.put(ReportType, json!({"id": id, "name": name, "category": category, "data_available_start": NOW - 365 * 86_400, "data_available_end": NOW}));
        }
        self.put(ReportRun, json!({"id": "frr_Dec", "report_type": "balance.summary.1", "status": "succeeded", "parameters": {"interval_start": NOW - 31 * 86_400, "interval_end": NOW}, "result": "file_RepDec"}));
        self.put(TaxRate, json!({"id": "txr_CA", "display_name": "Sales tax", "jurisdiction": "CA", "country": "US", "state": "CA", "percentage": 7.25, "inclusive": false, "active": true}));
        self.put(TaxRate, json!({"id": "txr_DE", "display_name": "VAT", "jurisdiction": "DE", "country": "DE", "state": null, "percentage": 19.0, "inclusive": true, "active": true}));
        self.put(TaxRate, json!({"id": "txr_WA", "display_name": "Sales tax", "jurisdiction": "WA", "country": "US", "state": "WA", "percentage": 6.5, "inclusive": false, "active": true}));
        self.put(TaxId, json!({"id": "txi_Weber", "customer": "cus_3fQz", "type": "eu_vat", "value": "DE123456789", "country": "DE", "verification": {"status": "verified"}}));
        self.put(TaxCode, json!({"id": "txcd_99999999", "name": "General - Tangible Goods", "description": "Physical goods not otherwise classified"}));
        self.put(TaxCode, json!({"id": "txcd_10103001", "name": "Software as a service (SaaS) - business use", "description": "Cloud software sold to businesses"}));
        self.put(TaxCode, json!({"id": "txcd_40060003", "name": "Food and beverage - coffee beans", "description": "Unprepared coffee sold as groceries"}));
        self.put(TaxCode, json!({"id": "txcd_92010001", "name": "Shipping", "description": "Delivery charges billed with goods"}));
        self.put(WebhookEndpoint, json!({"id": "we_Shop", "url": "https://shop.example.com/hooks/stripe", "enabled_events": ["charge.succeeded", "charge.refunded", "invoice.payment_failed", "customer.subscription.deleted"], "status": "enabled", "description": "Order system"}));
        self.put(WebhookEndpoint, json!({"id": "we_Books", "url": "https://books.example.com/stripe", "enabled_events": ["payout.paid"], "status": "disabled", "description": "Accounting sync"}));
        for (id, kind, object) in [
            ("evt_1Chg", "charge.succeeded", "ch_6Zz0"),
            ("evt_2Ref", "charge.refunded", "ch_3Lx1"),
            ("evt_3Fail", "invoice.payment_failed", "in_31E"),
            ("evt_4Disp", "charge.dispute.created", "dp_1Dsp"),
            ("evt_5Paid", "payout.paid", "po_1Dec"),
            ("evt_6Sub", "customer.subscription.updated", "sub_3fQzPause"),
        ] {
            self.put(
                Event,
                json!({"id": id, "type": kind, "data": {"object": {"id": object}}, "pending_webhooks": 0}),
            );
        }
        self.put(File, json!({"id": "file_Receipt", "filename": "receipt-2188.pdf", "purpose": "dispute_evidence", "size": 48_213, "type": "pdf", "url": "https://files.stripe.com/v1/files/file_Receipt/contents"}));
        self.put(File, json!({"id": "file_Logo", "filename": "logo.png", "purpose": "business_logo", "size": 12_044, "type": "png", "url": "https://files.stripe.com/v1/files/file_Logo/contents"}));
        self.put(File, json!({"id": "file_RepDec", "filename": "frr_Dec.csv", "purpose": "finance_report_run", "size": 3_310, "type": "csv", "url": "https://files.stripe.com/v1/files/file_RepDec/contents"}));
        self.put(FileLink, json!({"id": "link_Logo", "file": "file_Logo", "url": "https://files.stripe.com/links/link_Logo", "expires_at": null, "expired": false}));
    }

    /// Two hundred balance transactions over the last quarter: mostly charges, with
    /// refunds, fees, adjustments and payouts among them.
    fn seed_balance_transactions(&mut self) {
        const CHARGES: [(&str, &str); 3] = [
            ("ch_3Lx1", "Order #1042"),
            ("ch_6Zz0", "Wholesale order #2210"),
            ("ch_1Dsp", "Wholesale order #2188"),
        ];
        for n in 0..200_i64 {
            let created = NOW - (200 - n) * 10 * 3_600;
            let (kind, amount, source, description) = match n % 20 {
                7 => (
                    "refund",
                    -(500 + n * 13 % 2_000),
                    "re_1Ab",
                    "Refund to customer".to_owned(),
                ),
                13 => (
                    "adjustment",
                    -(300 + n % 700),
                    "dp_1Dsp",
                    "Dispute withdrawal".to_owned(),
                ),
                19 => (
                    "payout",
                    -(20_000 + n * 97 % 30_000),
                    "po_1Dec",
                    "STRIPE PAYOUT".to_owned(),
                ),
                17 => (
                    "stripe_fee",
                    -(200 + n % 300),
                    "-",
                    "Radar and billing fees".to_owned(),
                ),
                _ => {
                    let (charge, what) = CHARGES[(n % 3) as usize];
                    (
                        "charge",
                        900 + (n * 7_919) % 24_000,
                        charge,
                        format!("{what}, payment {n}"),
                    )
                }
            };
            let fee = if kind == "charge" {
                30 + amount * 29 / 1_000
            } else {
                0
            };
            let id = format!("txn_{:04}{}", n + 1, ["Qa", "Lz", "Mb", "Rx"][(n % 4) as usize]);
            let payout = (kind != "payout" && n < 180).then_some("po_1Dec");
            self.put(
                Object::BalanceTransaction,
                json!({
                    "id": id,
                    "amount": amount,
                    "fee": fee,
                    "net": amount - fee,
                    "currency": "usd",
                    "type": kind,
                    "status": if n < 190 { "available" } else { "pending" },
                    "source": source,
                    "payout": payout,
                    "description": description,
                    "created": created,
                }),
            );
        }
    }
}
