//! The payments example's tools: Stripe's API, resource by resource, as MCP tools named as
//! its reference names the operations (`create_customer`, `capture_payment_intent`,
//! `finalize_invoice`, ...), each in a group (`customers`, `payments`, `billing`, ...).
//!
//! Every tool answers from the in-memory account of `crate::fixtures`; most are one call
//! of a generic operation there, so this file is mostly declarations: names, descriptions,
//! parameters. It is included by other programs with `#[path]` at their crate root (the tool
//! discovery benchmark), so it names nothing of the example's `main.rs`.

use crate::fixtures::{self, Answer, Object as O};
use mcp_toolkit::ask::Elicitation;
use mcp_toolkit::{Context, ToolError, tool, tools};
use serde_json::json;

/// Every tool of the catalogue.
pub fn tools() -> Vec<mcp_toolkit::Tool> {
    tools![
        // customers
        create_customer,
        retrieve_customer,
        update_customer,
        delete_customer,
        list_customers,
        search_customers,
        list_customer_payment_methods,
        delete_customer_discount,
        create_customer_balance_transaction,
        retrieve_customer_balance_transaction,
        list_customer_balance_transactions,
        // payments
        create_payment_intent,
        retrieve_payment_intent,
        update_payment_intent,
        list_payment_intents,
        search_payment_intents,
        confirm_payment_intent,
        capture_payment_intent,
        cancel_payment_intent,
        increment_payment_intent_authorization,
        create_charge,
        retrieve_charge,
        update_charge,
        list_charges,
        search_charges,
        capture_charge,
        // payment_methods
        create_payment_method,
        retrieve_payment_method,
        update_payment_method,
        list_payment_methods,
        attach_payment_method,
        detach_payment_method,
        create_setup_intent,
        retrieve_setup_intent,
        update_setup_intent,
        list_setup_intents,
        confirm_setup_intent,
        cancel_setup_intent,
        // refunds
        create_refund,
        retrieve_refund,
        update_refund,
        list_refunds,
        cancel_refund,
        // disputes
        retrieve_dispute,
        update_dispute,
        list_disputes,
        close_dispute,
        // balance
        retrieve_balance,
        list_balance_transactions,
        retrieve_balance_transaction,
        // payouts
        create_payout,
        retrieve_payout,
        update_payout,
        list_payouts,
        cancel_payout,
        reverse_payout,
        // products
        create_product,
        retrieve_product,
        update_product,
        delete_product,
        list_products,
        search_products,
        create_price,
        retrieve_price,
        update_price,
        list_prices,
        search_prices,
        create_plan,
        retrieve_plan,
        update_plan,
        delete_plan,
        list_plans,
        // shipping
        create_shipping_rate,
        retrieve_shipping_rate,
        update_shipping_rate,
        list_shipping_rates,
        // billing
        create_invoice,
        retrieve_invoice,
        update_invoice,
        delete_invoice,
        list_invoices,
        search_invoices,
        finalize_invoice,
        pay_invoice,
        send_invoice,
        void_invoice,
        mark_invoice_uncollectible,
        create_invoice_preview,
        list_invoice_line_items,
        create_invoice_item,
        retrieve_invoice_item,
        update_invoice_item,
        delete_invoice_item,
        list_invoice_items,
        create_credit_note,
        retrieve_credit_note,
        update_credit_note,
        list_credit_notes,
        void_credit_note,
        preview_credit_note,
        // quotes
        create_quote,
        retrieve_quote,
        update_quote,
        list_quotes,
        finalize_quote,
        accept_quote,
        cancel_quote,
        // subscriptions
        create_subscription,
        retrieve_subscription,
        update_subscription,
        cancel_subscription,
        list_subscriptions,
        search_subscriptions,
        resume_subscription,
        delete_subscription_discount,
        create_subscription_item,
        retrieve_subscription_item,
        update_subscription_item,
        delete_subscription_item,
        list_subscription_items,
        create_subscription_schedule,
        retrieve_subscription_schedule,
        update_subscription_schedule,
        list_subscription_schedules,
        cancel_subscription_schedule,
        release_subscription_schedule,
        // metering
        create_usage_record,
        list_usage_record_summaries,
        create_billing_meter,
        list_billing_meters,
        deactivate_billing_meter,
        create_meter_event,
        // discounts
        create_coupon,
        retrieve_coupon,
        update_coupon,
        delete_coupon,
        list_coupons,
        create_promotion_code,
        retrieve_promotion_code,
        update_promotion_code,
        list_promotion_codes,
        // checkout
        create_checkout_session,
        retrieve_checkout_session,
        list_checkout_sessions,
        expire_checkout_session,
        list_checkout_session_line_items,
        create_payment_link,
        retrieve_payment_link,
        update_payment_link,
        list_payment_links,
        list_payment_link_line_items,
        // connect
        create_account,
        retrieve_account,
        update_account,
        delete_account,
        list_accounts,
        reject_account,
        create_account_link,
        create_login_link,
        create_external_account,
        list_external_accounts,
        create_transfer,
        retrieve_transfer,
        update_transfer,
        list_transfers,
        reverse_transfer,
        retrieve_application_fee,
        list_application_fees,
        create_application_fee_refund,
        list_application_fee_refunds,
        // issuing
        create_cardholder,
        retrieve_cardholder,
        update_cardholder,
        list_cardholders,
        create_issuing_card,
        retrieve_issuing_card,
        update_issuing_card,
        list_issuing_cards,
        retrieve_authorization,
        list_authorizations,
        approve_authorization,
        decline_authorization,
        list_issuing_transactions,
        create_issuing_dispute,
        // terminal
        create_terminal_reader,
        retrieve_terminal_reader,
        delete_terminal_reader,
        list_terminal_readers,
        process_reader_payment_intent,
        cancel_reader_action,
        create_terminal_location,
        list_terminal_locations,
        create_connection_token,
        // reporting
        create_report_run,
        retrieve_report_run,
        list_report_runs,
        retrieve_report_type,
        list_report_types,
        // tax
        create_tax_rate,
        retrieve_tax_rate,
        update_tax_rate,
        list_tax_rates,
        create_tax_id,
        retrieve_tax_id,
        delete_tax_id,
        list_tax_ids,
        list_tax_codes,
        create_tax_calculation,
        // webhooks
        create_webhook_endpoint,
        retrieve_webhook_endpoint,
        update_webhook_endpoint,
        delete_webhook_endpoint,
        list_webhook_endpoints,
        retrieve_event,
        list_events,
        // files
        create_file,
        retrieve_file,
        list_files,
        create_file_link,
        retrieve_file_link,
        update_file_link,
        list_file_links,
    ]
}

/// Checks that a customer exists, for the tools that make something for one.
fn customer_exists(customer: Option<&str>) -> Result<(), ToolError> {
    match customer {
        Some(customer) => fixtures::require(O::Customer, customer).map(drop),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------
// customers

/// Add a new customer record that payments, subscriptions and invoices can point to.
///
/// # Arguments
/// * `email` - Their email address, where receipts and invoices go
/// * `name` - Full name or business name
/// * `phone` - Phone number
/// * `description` - A note about them for your team
/// * `payment_method` - The id of a payment method to attach as their default
#[tool(
    group = "customers",
    search_hint = "new client signup add buyer account register"
)]
fn create_customer(
    email: Option<String>,
    name: Option<String>,
    phone: Option<String>,
    description: Option<String>,
    payment_method: Option<String>,
) -> Answer {
    if let Some(method) = &payment_method {
        fixtures::require(O::PaymentMethod, method)?;
    }
    fixtures::create(
        O::Customer,
        json!({
            "email": email, "name": name, "phone": phone, "description": description,
            "invoice_settings": {"default_payment_method": payment_method},
            "balance": 0, "currency": "usd", "delinquent": false,
        }),
    )
}

/// Look up one customer by id: contact details, balance, default currency, delinquency.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
#[tool(group = "customers", always_load, annotations(read_only))]
fn retrieve_customer(customer: String) -> Answer {
    fixtures::retrieve(O::Customer, &customer)
}

/// Change a customer's details; only the fields given are changed.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `email` - New email address
/// * `name` - New full name or business name
/// * `phone` - New phone number
/// * `description` - New internal note
/// * `default_payment_method` - The id of the payment method to charge by default
#[tool(group = "customers")]
fn update_customer(
    customer: String,
    email: Option<String>,
    name: Option<String>,
    phone: Option<String>,
    description: Option<String>,
    default_payment_method: Option<String>,
) -> Answer {
    if let Some(method) = &default_payment_method {
        fixtures::require(O::PaymentMethod, method)?;
    }
    let settings = default_payment_method.map(|m| json!({"default_payment_method": m}));
    fixtures::update(
        O::Customer,
        &customer,
        json!({"email": email, "name": name, "phone": phone, "description": description, "invoice_settings": settings}),
    )
}

/// Permanently remove a customer; their active subscriptions end at once.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
#[tool(group = "customers", annotations(destructive))]
fn delete_customer(customer: String) -> Answer {
    fixtures::delete(O::Customer, &customer)
}

/// Page through customers, most recently added first.
///
/// # Arguments
/// * `email` - Only customers with exactly this email address
/// * `limit` - How many to return, 1 to 100
/// * `starting_after` - Id of the last customer on the previous page, to get the next page
#[tool(group = "customers", annotations(read_only))]
fn list_customers(
    email: Option<String>,
    #[default(10)] limit: u64,
    starting_after: Option<String>,
) -> Answer {
    fixtures::list(
        O::Customer,
        &[("email", email.as_deref())],
        limit,
        starting_after.as_deref(),
    )
}

/// Find customers with a query over their fields, like `name~'lopez'` or `email:'a@b.c'`.
///
/// # Arguments
/// * `query` - Clauses `field:'value'` (exact), `field~'value'` (contains) or bare words, all of which must match
/// * `limit` - How many to return, 1 to 100
#[tool(group = "customers", always_load, annotations(read_only))]
fn search_customers(query: String, #[default(10)] limit: u64) -> Answer {
    fixtures::search(O::Customer, &query, limit)
}

/// Show the cards, bank debits and other payment methods saved for one customer.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `type` - Only methods of this kind: `card`, `sepa_debit`, `us_bank_account`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "customers", annotations(read_only))]
fn list_customer_payment_methods(
    customer: String,
    r#type: Option<String>,
    #[default(10)] limit: u64,
) -> Answer {
    fixtures::require(O::Customer, &customer)?;
    fixtures::list(
        O::PaymentMethod,
        &[("customer", Some(&customer)), ("type", r#type.as_deref())],
        limit,
        None,
    )
}

/// Take away the coupon that currently applies to everything a customer buys.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
#[tool(group = "customers", annotations(destructive))]
fn delete_customer_discount(customer: String) -> Answer {
    let record = fixtures::require(O::Customer, &customer)?;
    if record["discount"].is_null() {
        return Err(ToolError::new(format!(
            "customer `{customer}` has no discount to remove"
        )));
    }
    fixtures::set(O::Customer, &customer, "discount", json!(null))?;
    fixtures::render(&json!({"object": "discount", "customer": customer, "deleted": true}))
}

/// Credit or debit a customer's account balance, which the next invoices use up.
///
/// A negative amount is a credit (the customer owes less), a positive one a debit.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `amount` - In cents: negative to credit, positive to debit
/// * `currency` - Three-letter ISO code, lowercase
/// * `description` - Why, shown to your team
#[tool(group = "customers")]
fn create_customer_balance_transaction(
    customer: String,
    amount: i64,
    #[default("usd".to_owned())] currency: String,
    description: Option<String>,
) -> Answer {
    let record = fixtures::require(O::Customer, &customer)?;
    let ending = record["balance"].as_i64().unwrap_or(0) + amount;
    fixtures::update(O::Customer, &customer, json!({"balance": ending}))?;
    fixtures::create(
        O::CustomerBalanceTransaction,
        json!({"customer": customer, "amount": amount, "currency": currency, "type": "adjustment", "description": description, "ending_balance": ending}),
    )
}

/// Look up one entry of a customer's credit balance history.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `transaction` - The entry's id, `cbtxn_...`
#[tool(group = "customers", annotations(read_only))]
fn retrieve_customer_balance_transaction(customer: String, transaction: String) -> Answer {
    let entry = fixtures::require(O::CustomerBalanceTransaction, &transaction)?;
    if entry["customer"] != customer.as_str() {
        return Err(ToolError::not_found(format!(
            "`{transaction}` is not an entry of customer `{customer}`"
        )));
    }
    fixtures::render(&entry)
}

/// Show the history of credits and debits on a customer's account balance.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "customers", annotations(read_only))]
fn list_customer_balance_transactions(customer: String, #[default(10)] limit: u64) -> Answer {
    fixtures::require(O::Customer, &customer)?;
    fixtures::list(
        O::CustomerBalanceTransaction,
        &[("customer", Some(&customer))],
        limit,
        None,
    )
}

// ---------------------------------------------------------------------------------------
// payments

/// Start collecting a payment: a payment intent tracks one purchase from creation to success.
///
/// # Arguments
/// * `amount` - In cents
/// * `currency` - Three-letter ISO code, lowercase
/// * `customer` - The customer's id, `cus_...`
/// * `payment_method` - The id of the payment method to use
/// * `description` - What the payment is for
/// * `capture_method` - `automatic`, or `manual` to hold the funds and capture later
/// * `confirm` - Confirm it at once instead of in a second step
#[tool(group = "payments")]
fn create_payment_intent(
    amount: u64,
    #[default("usd".to_owned())] currency: String,
    customer: Option<String>,
    payment_method: Option<String>,
    description: Option<String>,
    #[default("automatic".to_owned())] capture_method: String,
    #[default(false)] confirm: bool,
) -> Answer {
    customer_exists(customer.as_deref())?;
    fixtures::one_of("capture_method", Some(&capture_method), &["automatic", "manual"])?;
    let status = match (&payment_method, confirm, capture_method.as_str()) {
        (None, _, _) => "requires_payment_method",
        (Some(_), false, _) => "requires_confirmation",
        (Some(_), true, "manual") => "requires_capture",
        (Some(_), true, _) => "succeeded",
    };
    fixtures::create(
        O::PaymentIntent,
        json!({"amount": amount, "currency": currency, "customer": customer, "payment_method": payment_method,
               "description": description, "capture_method": capture_method, "status": status}),
    )
}

/// Look up one payment intent and the stage it is at.
///
/// # Arguments
/// * `payment_intent` - Its id, `pi_...`
#[tool(group = "payments", annotations(read_only))]
fn retrieve_payment_intent(payment_intent: String) -> Answer {
    fixtures::retrieve(O::PaymentIntent, &payment_intent)
}

/// Change the amount, description or payment method of a payment intent not yet confirmed.
///
/// # Arguments
/// * `payment_intent` - Its id, `pi_...`
/// * `amount` - New amount in cents
/// * `description` - New description
/// * `payment_method` - The id of another payment method
#[tool(group = "payments")]
fn update_payment_intent(
    payment_intent: String,
    amount: Option<u64>,
    description: Option<String>,
    payment_method: Option<String>,
) -> Answer {
    fixtures::transition(
        O::PaymentIntent,
        &payment_intent,
        "updated",
        &["requires_payment_method", "requires_confirmation"],
        json!({"amount": amount, "description": description, "payment_method": payment_method}),
    )
}

/// Page through payment intents, newest first, optionally for one customer.
///
/// # Arguments
/// * `customer` - Only this customer's, `cus_...`
/// * `status` - Only those at this stage, e.g. `succeeded`, `requires_capture`
/// * `limit` - How many to return, 1 to 100
/// * `starting_after` - Id of the last one on the previous page
#[tool(group = "payments", annotations(read_only))]
fn list_payment_intents(
    customer: Option<String>,
    status: Option<String>,
    #[default(10)] limit: u64,
    starting_after: Option<String>,
) -> Answer {
    fixtures::list(
        O::PaymentIntent,
        &[("customer", customer.as_deref()), ("status", status.as_deref())],
        limit,
        starting_after.as_deref(),
    )
}

/// Find payment intents with a query such as `status:'succeeded' amount>5000`.
///
/// # Arguments
/// * `query` - Clauses `field:'value'`, `field~'value'`, `field>n`, `field<n` or bare words
/// * `limit` - How many to return, 1 to 100
#[tool(group = "payments", annotations(read_only))]
fn search_payment_intents(query: String, #[default(10)] limit: u64) -> Answer {
    fixtures::search(O::PaymentIntent, &query, limit)
}

/// Confirm that the buyer means to pay, which makes the payment go through.
///
/// # Arguments
/// * `payment_intent` - Its id, `pi_...`
/// * `payment_method` - The payment method to pay with, if not set yet
#[tool(group = "payments")]
fn confirm_payment_intent(payment_intent: String, payment_method: Option<String>) -> Answer {
    let intent = fixtures::require(O::PaymentIntent, &payment_intent)?;
    let method = payment_method.or_else(|| intent["payment_method"].as_str().map(str::to_owned));
    let Some(method) = method else {
        return Err(ToolError::new(format!(
            "payment intent `{payment_intent}` has no payment method; pass `payment_method`"
        )));
    };
    fixtures::require(O::PaymentMethod, &method)?;
    let status = if intent["capture_method"] == "manual" {
        "requires_capture"
    } else {
        "succeeded"
    };
    fixtures::transition(
        O::PaymentIntent,
        &payment_intent,
        "confirmed",
        &["requires_payment_method", "requires_confirmation"],
        json!({"payment_method": method, "status": status}),
    )
}

/// Collect funds that were only held (authorized) on a payment intent, all or part of them.
///
/// # Arguments
/// * `payment_intent` - Its id, `pi_...`
/// * `amount_to_capture` - In cents, at most the amount held; all of it when not given
#[tool(group = "payments")]
fn capture_payment_intent(payment_intent: String, amount_to_capture: Option<u64>) -> Answer {
    let intent = fixtures::require(O::PaymentIntent, &payment_intent)?;
    let held = intent["amount"].as_u64().unwrap_or(0);
    let amount = amount_to_capture.unwrap_or(held);
    if amount == 0 || amount > held {
        return Err(ToolError::new(format!(
            "`amount_to_capture` must be between 1 and the {held} cents held"
        )));
    }
    fixtures::transition(
        O::PaymentIntent,
        &payment_intent,
        "captured",
        &["requires_capture"],
        json!({"status": "succeeded", "amount_received": amount}),
    )
}

/// Call off a payment intent that has not succeeded; any held funds are released.
///
/// # Arguments
/// * `payment_intent` - Its id, `pi_...`
/// * `cancellation_reason` - `duplicate`, `fraudulent`, `requested_by_customer` or `abandoned`
#[tool(group = "payments", annotations(destructive))]
fn cancel_payment_intent(payment_intent: String, cancellation_reason: Option<String>) -> Answer {
    fixtures::one_of(
        "cancellation_reason",
        cancellation_reason.as_deref(),
        &["duplicate", "fraudulent", "requested_by_customer", "abandoned"],
    )?;
    fixtures::transition(
        O::PaymentIntent,
        &payment_intent,
        "canceled",
        &[
            "requires_payment_method",
            "requires_confirmation",
            "requires_capture",
            "processing",
        ],
        json!({"status": "canceled", "cancellation_reason": cancellation_reason}),
    )
}

/// Raise the amount held on a card for a payment intent not yet captured.
///
/// # Arguments
/// * `payment_intent` - Its id, `pi_...`
/// * `amount` - The new, larger total in cents
#[tool(group = "payments")]
fn increment_payment_intent_authorization(payment_intent: String, amount: u64) -> Answer {
    let intent = fixtures::require(O::PaymentIntent, &payment_intent)?;
    let held = intent["amount"].as_u64().unwrap_or(0);
    if amount <= held {
        return Err(ToolError::new(format!(
            "`amount` must be more than the {held} cents already held"
        )));
    }
    fixtures::transition(
        O::PaymentIntent,
        &payment_intent,
        "incremented",
        &["requires_capture"],
        json!({"amount": amount}),
    )
}

/// Charge a card or other payment source directly (the older API, before payment intents).
///
/// # Arguments
/// * `amount` - In cents
/// * `currency` - Three-letter ISO code, lowercase
/// * `customer` - The customer's id, `cus_...`
/// * `source` - The payment method or card id to charge
/// * `description` - What it is for
/// * `capture` - `false` to only hold the funds and capture later
#[tool(group = "payments")]
fn create_charge(
    amount: u64,
    #[default("usd".to_owned())] currency: String,
    customer: Option<String>,
    source: Option<String>,
    description: Option<String>,
    #[default(true)] capture: bool,
) -> Answer {
    customer_exists(customer.as_deref())?;
    if customer.is_none() && source.is_none() {
        return Err(ToolError::new("give `customer` or `source`: something to charge"));
    }
    if let Some(source) = &source {
        fixtures::require(O::PaymentMethod, source)?;
    }
    fixtures::create(
        O::Charge,
        json!({"amount": amount, "amount_refunded": 0, "refunded": false, "captured": capture, "paid": true,
               "currency": currency, "customer": customer, "payment_method": source, "status": "succeeded",
               "disputed": false, "description": description}),
    )
}

/// Look up one charge: amount, what was refunded, card used, outcome.
///
/// # Arguments
/// * `charge` - Its id, `ch_...`
#[tool(group = "payments", annotations(read_only))]
fn retrieve_charge(charge: String) -> Answer {
    fixtures::retrieve(O::Charge, &charge)
}

/// Change the description or receipt email of a charge.
///
/// # Arguments
/// * `charge` - Its id, `ch_...`
/// * `description` - New description
/// * `receipt_email` - Where to send the receipt
#[tool(group = "payments")]
fn update_charge(charge: String, description: Option<String>, receipt_email: Option<String>) -> Answer {
    fixtures::update(
        O::Charge,
        &charge,
        json!({"description": description, "receipt_email": receipt_email}),
    )
}

/// Page through charges, newest first, optionally for one customer or payment intent.
///
/// # Arguments
/// * `customer` - Only this customer's, `cus_...`
/// * `payment_intent` - Only those of this payment intent, `pi_...`
/// * `limit` - How many to return, 1 to 100
/// * `starting_after` - Id of the last one on the previous page
#[tool(group = "payments", annotations(read_only))]
fn list_charges(
    customer: Option<String>,
    payment_intent: Option<String>,
    #[default(10)] limit: u64,
    starting_after: Option<String>,
) -> Answer {
    fixtures::list(
        O::Charge,
        &[
            ("customer", customer.as_deref()),
            ("payment_intent", payment_intent.as_deref()),
        ],
        limit,
        starting_after.as_deref(),
    )
}

/// Find charges with a query such as `status:'failed'` or `amount>10000`.
///
/// # Arguments
/// * `query` - Clauses `field:'value'`, `field~'value'`, `field>n`, `field<n` or bare words
/// * `limit` - How many to return, 1 to 100
#[tool(group = "payments", always_load, annotations(read_only))]
fn search_charges(query: String, #[default(10)] limit: u64) -> Answer {
    fixtures::search(O::Charge, &query, limit)
}

/// Collect the funds of a charge made with `capture` off.
///
/// # Arguments
/// * `charge` - Its id, `ch_...`
/// * `amount` - In cents, at most the amount held; all of it when not given
#[tool(group = "payments")]
fn capture_charge(charge: String, amount: Option<u64>) -> Answer {
    let record = fixtures::require(O::Charge, &charge)?;
    if record["captured"] == true {
        return Err(ToolError::new(format!("charge `{charge}` was already captured")));
    }
    let held = record["amount"].as_u64().unwrap_or(0);
    let amount = amount.unwrap_or(held);
    if amount == 0 || amount > held {
        return Err(ToolError::new(format!(
            "`amount` must be between 1 and the {held} cents held"
        )));
    }
    fixtures::update(
        O::Charge,
        &charge,
        json!({"captured": true, "amount_captured": amount}),
    )
}

// ---------------------------------------------------------------------------------------
// payment_methods

/// Record a new card or bank debit that can later pay for things.
///
/// # Arguments
/// * `type` - `card`, `sepa_debit` or `us_bank_account`
/// * `last4` - The last four digits of the card or account number (test data only)
/// * `name` - The name on the card or account
#[tool(group = "payment_methods")]
fn create_payment_method(
    #[default("card".to_owned())] r#type: String,
    last4: String,
    name: Option<String>,
) -> Answer {
    fixtures::one_of("type", Some(&r#type), &["card", "sepa_debit", "us_bank_account"])?;
    if last4.len() != 4 || !last4.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ToolError::new("`last4` must be four digits"));
    }
    let mut fields = json!({"type": r#type, "customer": null, "billing_details": {"name": name}});
    fields[r#type.as_str()] = json!({"last4": last4});
    fixtures::create(O::PaymentMethod, fields)
}

/// Look up one saved payment method: its kind, brand, last digits, expiry, owner.
///
/// # Arguments
/// * `payment_method` - Its id, `pm_...`
#[tool(group = "payment_methods", annotations(read_only))]
fn retrieve_payment_method(payment_method: String) -> Answer {
    fixtures::retrieve(O::PaymentMethod, &payment_method)
}

/// Change a saved card's expiry date or the billing name on it.
///
/// # Arguments
/// * `payment_method` - Its id, `pm_...`
/// * `exp_month` - New expiry month, 1 to 12
/// * `exp_year` - New expiry year, four digits
/// * `name` - New billing name
#[tool(group = "payment_methods")]
fn update_payment_method(
    payment_method: String,
    exp_month: Option<u64>,
    exp_year: Option<u64>,
    name: Option<String>,
) -> Answer {
    let mut record = fixtures::require(O::PaymentMethod, &payment_method)?;
    if exp_month.is_some_and(|m| !(1..=12).contains(&m)) {
        return Err(ToolError::new("`exp_month` must be 1 to 12"));
    }
    if exp_month.is_some() || exp_year.is_some() {
        if record["type"] != "card" {
            return Err(ToolError::new(format!(
                "`{payment_method}` is not a card; only a card has an expiry date"
            )));
        }
        if let Some(month) = exp_month {
            record["card"]["exp_month"] = json!(month);
        }
        if let Some(year) = exp_year {
            record["card"]["exp_year"] = json!(year);
        }
    }
    let billing = name.map(|name| json!({"name": name}));
    fixtures::update(
        O::PaymentMethod,
        &payment_method,
        json!({"card": record["card"].clone(), "billing_details": billing}),
    )
}

/// Page through payment methods, optionally only one customer's or one kind.
///
/// # Arguments
/// * `customer` - Only this customer's, `cus_...`
/// * `type` - Only this kind: `card`, `sepa_debit`, `us_bank_account`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "payment_methods", annotations(read_only))]
fn list_payment_methods(
    customer: Option<String>,
    r#type: Option<String>,
    #[default(10)] limit: u64,
) -> Answer {
    fixtures::list(
        O::PaymentMethod,
        &[("customer", customer.as_deref()), ("type", r#type.as_deref())],
        limit,
        None,
    )
}

/// Save a payment method to a customer so it can be charged again later.
///
/// # Arguments
/// * `payment_method` - Its id, `pm_...`
/// * `customer` - The customer's id, `cus_...`
#[tool(group = "payment_methods")]
fn attach_payment_method(payment_method: String, customer: String) -> Answer {
    fixtures::require(O::Customer, &customer)?;
    let record = fixtures::require(O::PaymentMethod, &payment_method)?;
    if let Some(owner) = record["customer"].as_str() {
        return Err(ToolError::new(format!(
            "`{payment_method}` already belongs to `{owner}`; detach it first"
        )));
    }
    fixtures::update(O::PaymentMethod, &payment_method, json!({"customer": customer}))
}

/// Unlink a saved payment method from its customer; it can no longer be charged.
///
/// # Arguments
/// * `payment_method` - Its id, `pm_...`
#[tool(group = "payment_methods", annotations(destructive))]
fn detach_payment_method(payment_method: String) -> Answer {
    let record = fixtures::require(O::PaymentMethod, &payment_method)?;
    if record["customer"].is_null() {
        return Err(ToolError::new(format!(
            "`{payment_method}` is not attached to any customer"
        )));
    }
    fixtures::set(O::PaymentMethod, &payment_method, "customer", json!(null))
}

/// Begin saving a customer's payment details for future use without charging now.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `payment_method` - The payment method to set up, if already known
/// * `usage` - `off_session` (charge later without them) or `on_session`
#[tool(group = "payment_methods")]
fn create_setup_intent(
    customer: Option<String>,
    payment_method: Option<String>,
    #[default("off_session".to_owned())] usage: String,
) -> Answer {
    customer_exists(customer.as_deref())?;
    fixtures::one_of("usage", Some(&usage), &["off_session", "on_session"])?;
    let status = if payment_method.is_some() {
        "requires_confirmation"
    } else {
        "requires_payment_method"
    };
    fixtures::create(
        O::SetupIntent,
        json!({"customer": customer, "payment_method": payment_method, "usage": usage, "status": status}),
    )
}

/// Look up one setup intent and whether the details were saved.
///
/// # Arguments
/// * `setup_intent` - Its id, `seti_...`
#[tool(group = "payment_methods", annotations(read_only))]
fn retrieve_setup_intent(setup_intent: String) -> Answer {
    fixtures::retrieve(O::SetupIntent, &setup_intent)
}

/// Change the customer or payment method of a setup intent not yet confirmed.
///
/// # Arguments
/// * `setup_intent` - Its id, `seti_...`
/// * `customer` - The customer's id, `cus_...`
/// * `payment_method` - The payment method's id, `pm_...`
#[tool(group = "payment_methods")]
fn update_setup_intent(
    setup_intent: String,
    customer: Option<String>,
    payment_method: Option<String>,
) -> Answer {
    customer_exists(customer.as_deref())?;
    fixtures::transition(
        O::SetupIntent,
        &setup_intent,
        "updated",
        &["requires_payment_method", "requires_confirmation"],
        json!({"customer": customer, "payment_method": payment_method}),
    )
}

/// Page through setup intents, optionally one customer's.
///
/// # Arguments
/// * `customer` - Only this customer's, `cus_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "payment_methods", annotations(read_only))]
fn list_setup_intents(customer: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(O::SetupIntent, &[("customer", customer.as_deref())], limit, None)
}

/// Finish a setup intent so the payment method is saved for later charges.
///
/// # Arguments
/// * `setup_intent` - Its id, `seti_...`
/// * `payment_method` - The payment method to save, if not set yet
#[tool(group = "payment_methods")]
fn confirm_setup_intent(setup_intent: String, payment_method: Option<String>) -> Answer {
    let intent = fixtures::require(O::SetupIntent, &setup_intent)?;
    let method = payment_method.or_else(|| intent["payment_method"].as_str().map(str::to_owned));
    let Some(method) = method else {
        return Err(ToolError::new(format!(
            "setup intent `{setup_intent}` has no payment method; pass `payment_method`"
        )));
    };
    fixtures::require(O::PaymentMethod, &method)?;
    fixtures::transition(
        O::SetupIntent,
        &setup_intent,
        "confirmed",
        &["requires_payment_method", "requires_confirmation"],
        json!({"payment_method": method, "status": "succeeded"}),
    )
}

/// Abandon a setup intent that has not finished.
///
/// # Arguments
/// * `setup_intent` - Its id, `seti_...`
/// * `cancellation_reason` - `abandoned`, `duplicate` or `requested_by_customer`
#[tool(group = "payment_methods", annotations(destructive))]
fn cancel_setup_intent(setup_intent: String, cancellation_reason: Option<String>) -> Answer {
    fixtures::one_of(
        "cancellation_reason",
        cancellation_reason.as_deref(),
        &["abandoned", "duplicate", "requested_by_customer"],
    )?;
    fixtures::transition(
        O::SetupIntent,
        &setup_intent,
        "canceled",
        &["requires_payment_method", "requires_confirmation"],
        json!({"status": "canceled", "cancellation_reason": cancellation_reason}),
    )
}

// ---------------------------------------------------------------------------------------
// refunds

/// What the user is asked before a large refund goes out.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ConfirmRefund {
    /// Send the refund
    #[serde(default)]
    pub confirm: bool,
}

/// Above this many cents, `create_refund` asks the user first.
const CONFIRM_REFUNDS_OVER: u64 = 10_000;

/// Return money from a charge to the buyer's card or account, in full or in part.
///
/// Refunds over $100.00 are sent only once the user confirms.
///
/// # Arguments
/// * `charge` - The charge to refund, `ch_...`
/// * `payment_intent` - Or the payment intent whose charge to refund, `pi_...`
/// * `amount` - In cents; all that is left to refund when not given
/// * `reason` - `duplicate`, `fraudulent` or `requested_by_customer`
#[tool(
    group = "refunds",
    search_hint = "money back return give back reimburse repay"
)]
async fn create_refund(
    charge: Option<String>,
    payment_intent: Option<String>,
    amount: Option<u64>,
    reason: Option<String>,
    ctx: Context,
) -> Answer {
    fixtures::one_of(
        "reason",
        reason.as_deref(),
        &["duplicate", "fraudulent", "requested_by_customer"],
    )?;
    let charge = match (charge, payment_intent) {
        (Some(charge), _) => charge,
        (None, Some(intent)) => {
            let intent_record = fixtures::require(O::PaymentIntent, &intent)?;
            match intent_record["latest_charge"].as_str() {
                Some(charge) => charge.to_owned(),
                None => {
                    return Err(ToolError::new(format!(
                        "payment intent `{intent}` has no charge to refund"
                    )));
                }
            }
        }
        (None, None) => {
            return Err(ToolError::new(
                "give `charge` or `payment_intent`: what to refund",
            ));
        }
    };
    let record = fixtures::require(O::Charge, &charge)?;
    let left = fixtures::refundable(&record);
    let amount = amount.unwrap_or(left);
    if left == 0 {
        return Err(ToolError::new(format!(
            "charge `{charge}` is already refunded in full"
        )));
    }
    if amount == 0 || amount > left {
        return Err(ToolError::new(format!(
            "`amount` must be between 1 and the {left} cents left to refund on `{charge}`"
        )));
    }
    // Ask before changing anything: in revision 2026-07-28 the tool runs again from the
    // top once the user has answered.
    if amount > CONFIRM_REFUNDS_OVER {
        let currency = record["currency"].as_str().unwrap_or("usd");
        let message = format!(
            "Refund {} {} of charge {charge} ({})?",
            fixtures::money(amount as i64),
            currency.to_uppercase(),
            record["description"].as_str().unwrap_or("no description"),
        );
        match ctx.elicit::<ConfirmRefund>(message).await? {
            Elicitation::Accept(ConfirmRefund { confirm: true }) => {}
            _ => {
                return Err(ToolError::new(format!(
                    "nothing was refunded: the user did not confirm the refund of {amount} cents on `{charge}`"
                )));
            }
        }
    }
    fixtures::refund(&charge, amount, reason.as_deref())
}

/// Look up one refund and whether it went through.
///
/// # Arguments
/// * `refund` - Its id, `re_...`
#[tool(group = "refunds", annotations(read_only))]
fn retrieve_refund(refund: String) -> Answer {
    fixtures::retrieve(O::Refund, &refund)
}

/// Change the reason noted on a refund.
///
/// # Arguments
/// * `refund` - Its id, `re_...`
/// * `reason` - `duplicate`, `fraudulent` or `requested_by_customer`
#[tool(group = "refunds")]
fn update_refund(refund: String, reason: String) -> Answer {
    fixtures::one_of(
        "reason",
        Some(&reason),
        &["duplicate", "fraudulent", "requested_by_customer"],
    )?;
    fixtures::update(O::Refund, &refund, json!({"reason": reason}))
}

/// Page through refunds, newest first, optionally those of one charge.
///
/// # Arguments
/// * `charge` - Only refunds of this charge, `ch_...`
/// * `payment_intent` - Only refunds of this payment intent, `pi_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "refunds", annotations(read_only))]
fn list_refunds(charge: Option<String>, payment_intent: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(
        O::Refund,
        &[
            ("charge", charge.as_deref()),
            ("payment_intent", payment_intent.as_deref()),
        ],
        limit,
        None,
    )
}

/// Stop a refund that is still waiting for the customer's action.
///
/// # Arguments
/// * `refund` - Its id, `re_...`
#[tool(group = "refunds", annotations(destructive))]
fn cancel_refund(refund: String) -> Answer {
    fixtures::transition(
        O::Refund,
        &refund,
        "canceled",
        &["requires_action", "pending"],
        json!({"status": "canceled"}),
    )
}

// ---------------------------------------------------------------------------------------
// disputes

/// Look up one dispute a cardholder raised with their bank, with its deadline.
///
/// # Arguments
/// * `dispute` - Its id, `dp_...`
#[tool(group = "disputes", annotations(read_only))]
fn retrieve_dispute(dispute: String) -> Answer {
    fixtures::retrieve(O::Dispute, &dispute)
}

/// Add evidence to a dispute, and optionally submit it to the bank.
///
/// # Arguments
/// * `dispute` - Its id, `dp_...`
/// * `uncategorized_text` - Your account of what happened
/// * `shipping_tracking_number` - The tracking number of the delivery
/// * `customer_name` - The buyer's name
/// * `receipt` - The id of an uploaded file with the receipt, `file_...`
/// * `submit` - Send the evidence to the bank now; it can no longer be changed
#[tool(group = "disputes", search_hint = "chargeback fight contest respond proof")]
fn update_dispute(
    dispute: String,
    uncategorized_text: Option<String>,
    shipping_tracking_number: Option<String>,
    customer_name: Option<String>,
    receipt: Option<String>,
    #[default(false)] submit: bool,
) -> Answer {
    if let Some(file) = &receipt {
        fixtures::require(O::File, file)?;
    }
    let record = fixtures::require(O::Dispute, &dispute)?;
    let mut evidence = record["evidence"].clone();
    for (field, value) in [
        ("uncategorized_text", uncategorized_text),
        ("shipping_tracking_number", shipping_tracking_number),
        ("customer_name", customer_name),
        ("receipt", receipt),
    ] {
        if let Some(value) = value {
            evidence[field] = json!(value);
        }
    }
    let status = submit.then_some("under_review");
    fixtures::transition(
        O::Dispute,
        &dispute,
        "updated",
        &["needs_response", "warning_needs_response"],
        json!({"evidence": evidence, "status": status}),
    )
}

/// Page through disputes, newest first.
///
/// # Arguments
/// * `charge` - Only disputes of this charge, `ch_...`
/// * `status` - Only those in this state, e.g. `needs_response`, `won`, `lost`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "disputes", annotations(read_only))]
fn list_disputes(charge: Option<String>, status: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(
        O::Dispute,
        &[("charge", charge.as_deref()), ("status", status.as_deref())],
        limit,
        None,
    )
}

/// Concede a dispute: accept the loss instead of sending evidence.
///
/// # Arguments
/// * `dispute` - Its id, `dp_...`
#[tool(
    group = "disputes",
    search_hint = "chargeback give up accept lose concede",
    annotations(destructive)
)]
fn close_dispute(dispute: String) -> Answer {
    fixtures::transition(
        O::Dispute,
        &dispute,
        "closed",
        &["needs_response", "warning_needs_response"],
        json!({"status": "lost"}),
    )
}

// ---------------------------------------------------------------------------------------
// balance

/// Show the account's funds per currency: what can be paid out now and what is pending.
#[tool(
    group = "balance",
    always_load,
    search_hint = "money cash funds on hand how much available",
    annotations(read_only)
)]
fn retrieve_balance() -> Answer {
    fixtures::balance()
}

/// List every movement of the account's funds, newest first, one line each: charges,
/// refunds, fees, adjustments and payouts with amount, fee and net.
///
/// # Arguments
/// * `type` - Only this kind: `charge`, `refund`, `adjustment`, `stripe_fee`, `payout`
/// * `payout` - Only those paid out in this payout, `po_...`
/// * `limit` - How many lines at most
#[tool(group = "balance", max_result_chars = 4000, annotations(read_only))]
fn list_balance_transactions(
    r#type: Option<String>,
    payout: Option<String>,
    #[default(200)] limit: u64,
) -> Answer {
    fixtures::one_of(
        "type",
        r#type.as_deref(),
        &["charge", "refund", "adjustment", "stripe_fee", "payout"],
    )?;
    fixtures::balance_transactions(r#type.as_deref(), payout.as_deref(), limit)
}

/// Look up one movement of the account's funds, with its fee and net amount.
///
/// # Arguments
/// * `id` - Its id, `txn_...`
#[tool(group = "balance", annotations(read_only))]
fn retrieve_balance_transaction(id: String) -> Answer {
    fixtures::retrieve(O::BalanceTransaction, &id)
}

// ---------------------------------------------------------------------------------------
// payouts

/// Send funds from the account's available balance to its bank account or debit card.
///
/// # Arguments
/// * `amount` - In cents
/// * `currency` - Three-letter ISO code, lowercase
/// * `method` - `standard` (a few days) or `instant`
/// * `destination` - The bank account to send to, `ba_...`; the default for the currency when not given
/// * `description` - A note for your records
#[tool(
    group = "payouts",
    scopes("payouts:write"),
    search_hint = "withdraw cash out transfer to bank"
)]
fn create_payout(
    amount: u64,
    #[default("usd".to_owned())] currency: String,
    #[default("standard".to_owned())] method: String,
    destination: Option<String>,
    description: Option<String>,
) -> Answer {
    fixtures::one_of("method", Some(&method), &["standard", "instant"])?;
    if amount == 0 {
        return Err(ToolError::new("`amount` must be at least 1 cent"));
    }
    let destination = match destination {
        Some(id) => {
            fixtures::require(O::ExternalAccount, &id)?;
            id
        }
        None if currency == "eur" => "ba_Eur02".to_owned(),
        None => "ba_Main01".to_owned(),
    };
    fixtures::withdraw(amount, &currency)?;
    let days = if method == "instant" { 0 } else { 2 };
    fixtures::create(
        O::Payout,
        json!({"amount": amount, "currency": currency, "method": method, "destination": destination,
               "description": description, "status": "pending", "arrival_date": fixtures::NOW + days * 86_400}),
    )
}

/// Look up one payout and when it arrives.
///
/// # Arguments
/// * `payout` - Its id, `po_...`
#[tool(group = "payouts", annotations(read_only))]
fn retrieve_payout(payout: String) -> Answer {
    fixtures::retrieve(O::Payout, &payout)
}

/// Change the note on a payout.
///
/// # Arguments
/// * `payout` - Its id, `po_...`
/// * `description` - A note for your records
#[tool(group = "payouts")]
fn update_payout(payout: String, description: String) -> Answer {
    fixtures::update(O::Payout, &payout, json!({"description": description}))
}

/// Page through payouts to the bank, newest first.
///
/// # Arguments
/// * `status` - Only those in this state: `pending`, `in_transit`, `paid`, `failed`, `canceled`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "payouts", annotations(read_only))]
fn list_payouts(status: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(O::Payout, &[("status", status.as_deref())], limit, None)
}

/// Call off a payout that is still pending; the funds go back to the balance.
///
/// # Arguments
/// * `payout` - Its id, `po_...`
#[tool(group = "payouts", annotations(destructive))]
fn cancel_payout(payout: String) -> Answer {
    fixtures::transition(
        O::Payout,
        &payout,
        "canceled",
        &["pending"],
        json!({"status": "canceled"}),
    )
}

/// Pull back a payout that already reached the bank, as a new payout the other way.
///
/// # Arguments
/// * `payout` - Its id, `po_...`
#[tool(group = "payouts")]
fn reverse_payout(payout: String) -> Answer {
    let record = fixtures::require(O::Payout, &payout)?;
    fixtures::transition(
        O::Payout,
        &payout,
        "reversed",
        &["paid"],
        json!({"reversed_by": format!("{payout}_reversal")}),
    )?;
    fixtures::create(
        O::Payout,
        json!({"amount": record["amount"], "currency": record["currency"], "status": "pending",
               "reversal_of": payout, "method": "standard"}),
    )
}

// ---------------------------------------------------------------------------------------
// products

/// Add something you sell, a good or a service, to the product catalogue.
///
/// # Arguments
/// * `name` - What customers see it called
/// * `description` - A longer text shown to customers
/// * `active` - Whether it can be bought now
/// * `tax_code` - Its tax category, `txcd_...`
#[tool(group = "products")]
fn create_product(
    name: String,
    description: Option<String>,
    #[default(true)] active: bool,
    tax_code: Option<String>,
) -> Answer {
    if let Some(code) = &tax_code {
        fixtures::require(O::TaxCode, code)?;
    }
    fixtures::create(
        O::Product,
        json!({"name": name, "description": description, "active": active, "tax_code": tax_code, "default_price": null}),
    )
}

/// Look up one product of the catalogue.
///
/// # Arguments
/// * `product` - Its id, `prod_...`
#[tool(group = "products", annotations(read_only))]
fn retrieve_product(product: String) -> Answer {
    fixtures::retrieve(O::Product, &product)
}

/// Rename a product, change its text or default price, or take it off sale.
///
/// # Arguments
/// * `product` - Its id, `prod_...`
/// * `name` - New name
/// * `description` - New description
/// * `active` - `false` to stop selling it
/// * `default_price` - The id of the price to show first, `price_...`
#[tool(group = "products")]
fn update_product(
    product: String,
    name: Option<String>,
    description: Option<String>,
    active: Option<bool>,
    default_price: Option<String>,
) -> Answer {
    if let Some(price) = &default_price {
        fixtures::require(O::Price, price)?;
    }
    fixtures::update(
        O::Product,
        &product,
        json!({"name": name, "description": description, "active": active, "default_price": default_price}),
    )
}

/// Remove a product that has no prices; archive it instead when it has.
///
/// # Arguments
/// * `product` - Its id, `prod_...`
#[tool(group = "products", annotations(destructive))]
fn delete_product(product: String) -> Answer {
    fixtures::require(O::Product, &product)?;
    let prices = fixtures::children(O::Price, "product", &product);
    if !prices.is_empty() {
        return Err(ToolError::new(format!(
            "product `{product}` still has prices ({}); set `active: false` with `update_product` instead",
            prices.len()
        )));
    }
    fixtures::delete(O::Product, &product)
}

/// Page through the product catalogue, newest first.
///
/// # Arguments
/// * `active` - Only products on sale (`true`) or archived (`false`)
/// * `limit` - How many to return, 1 to 100
/// * `starting_after` - Id of the last one on the previous page
#[tool(group = "products", annotations(read_only))]
fn list_products(active: Option<bool>, #[default(10)] limit: u64, starting_after: Option<String>) -> Answer {
    let active = active.map(|a| a.to_string());
    fixtures::list(
        O::Product,
        &[("active", active.as_deref())],
        limit,
        starting_after.as_deref(),
    )
}

/// Find products with a query such as `name~'mug'` or `active:'true'`.
///
/// # Arguments
/// * `query` - Clauses `field:'value'`, `field~'value'` or bare words
/// * `limit` - How many to return, 1 to 100
#[tool(group = "products", annotations(read_only))]
fn search_products(query: String, #[default(10)] limit: u64) -> Answer {
    fixtures::search(O::Product, &query, limit)
}

/// Set what a product costs: a one-off amount or a recurring one per interval.
///
/// # Arguments
/// * `product` - The product's id, `prod_...`
/// * `unit_amount` - In cents
/// * `currency` - Three-letter ISO code, lowercase
/// * `interval` - For a recurring price: `day`, `week`, `month` or `year`
/// * `nickname` - A name for your team
/// * `lookup_key` - A key to find this price by, instead of its id
#[tool(group = "products")]
fn create_price(
    product: String,
    unit_amount: u64,
    #[default("usd".to_owned())] currency: String,
    interval: Option<String>,
    nickname: Option<String>,
    lookup_key: Option<String>,
) -> Answer {
    fixtures::require(O::Product, &product)?;
    fixtures::one_of("interval", interval.as_deref(), &["day", "week", "month", "year"])?;
    let kind = if interval.is_some() {
        "recurring"
    } else {
        "one_time"
    };
    let recurring = interval.map(|i| json!({"interval": i, "interval_count": 1}));
    fixtures::create(
        O::Price,
        json!({"product": product, "unit_amount": unit_amount, "currency": currency, "type": kind,
               "recurring": recurring, "nickname": nickname, "lookup_key": lookup_key, "active": true}),
    )
}

/// Look up one price: its amount, currency and billing interval.
///
/// # Arguments
/// * `price` - Its id, `price_...`
#[tool(group = "products", annotations(read_only))]
fn retrieve_price(price: String) -> Answer {
    fixtures::retrieve(O::Price, &price)
}

/// Change a price's nickname or lookup key, or stop offering it (amounts cannot change).
///
/// # Arguments
/// * `price` - Its id, `price_...`
/// * `nickname` - New name for your team
/// * `lookup_key` - New lookup key
/// * `active` - `false` to stop offering it
#[tool(group = "products")]
fn update_price(
    price: String,
    nickname: Option<String>,
    lookup_key: Option<String>,
    active: Option<bool>,
) -> Answer {
    fixtures::update(
        O::Price,
        &price,
        json!({"nickname": nickname, "lookup_key": lookup_key, "active": active}),
    )
}

/// Page through prices, optionally those of one product.
///
/// # Arguments
/// * `product` - Only this product's, `prod_...`
/// * `type` - `one_time` or `recurring`
/// * `active` - Only prices offered (`true`) or retired (`false`)
/// * `limit` - How many to return, 1 to 100
#[tool(group = "products", annotations(read_only))]
fn list_prices(
    product: Option<String>,
    r#type: Option<String>,
    active: Option<bool>,
    #[default(10)] limit: u64,
) -> Answer {
    let active = active.map(|a| a.to_string());
    fixtures::list(
        O::Price,
        &[
            ("product", product.as_deref()),
            ("type", r#type.as_deref()),
            ("active", active.as_deref()),
        ],
        limit,
        None,
    )
}

/// Find prices with a query such as `lookup_key:'pro_monthly'` or `unit_amount>2000`.
///
/// # Arguments
/// * `query` - Clauses `field:'value'`, `field~'value'`, `field>n`, `field<n` or bare words
/// * `limit` - How many to return, 1 to 100
#[tool(group = "products", annotations(read_only))]
fn search_prices(query: String, #[default(10)] limit: u64) -> Answer {
    fixtures::search(O::Price, &query, limit)
}

/// Make a plan, the older way to set a recurring price for a product.
///
/// # Arguments
/// * `product` - The product's id, `prod_...`
/// * `amount` - In cents per interval
/// * `currency` - Three-letter ISO code, lowercase
/// * `interval` - `day`, `week`, `month` or `year`
/// * `nickname` - A name for your team
#[tool(group = "products")]
fn create_plan(
    product: String,
    amount: u64,
    #[default("usd".to_owned())] currency: String,
    #[default("month".to_owned())] interval: String,
    nickname: Option<String>,
) -> Answer {
    fixtures::require(O::Product, &product)?;
    fixtures::one_of("interval", Some(&interval), &["day", "week", "month", "year"])?;
    fixtures::create(
        O::Plan,
        json!({"product": product, "amount": amount, "currency": currency, "interval": interval, "nickname": nickname, "active": true}),
    )
}

/// Look up one plan.
///
/// # Arguments
/// * `plan` - Its id
#[tool(group = "products", annotations(read_only))]
fn retrieve_plan(plan: String) -> Answer {
    fixtures::retrieve(O::Plan, &plan)
}

/// Change a plan's nickname or whether new subscriptions may use it.
///
/// # Arguments
/// * `plan` - Its id
/// * `nickname` - New name for your team
/// * `active` - `false` to keep new subscriptions off it
#[tool(group = "products")]
fn update_plan(plan: String, nickname: Option<String>, active: Option<bool>) -> Answer {
    fixtures::update(O::Plan, &plan, json!({"nickname": nickname, "active": active}))
}

/// Remove a plan; subscriptions already on it keep it.
///
/// # Arguments
/// * `plan` - Its id
#[tool(group = "products", annotations(destructive))]
fn delete_plan(plan: String) -> Answer {
    fixtures::delete(O::Plan, &plan)
}

/// Page through plans.
///
/// # Arguments
/// * `product` - Only this product's, `prod_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "products", annotations(read_only))]
fn list_plans(product: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(O::Plan, &[("product", product.as_deref())], limit, None)
}

// ---------------------------------------------------------------------------------------
// shipping

/// Define a delivery option with a fixed fee that checkout can offer.
///
/// # Arguments
/// * `display_name` - What customers see, e.g. "Express, next day"
/// * `amount` - The fee in cents
/// * `currency` - Three-letter ISO code, lowercase
/// * `min_business_days` - Earliest delivery, in business days
/// * `max_business_days` - Latest delivery, in business days
#[tool(group = "shipping")]
fn create_shipping_rate(
    display_name: String,
    amount: u64,
    #[default("usd".to_owned())] currency: String,
    min_business_days: Option<u64>,
    max_business_days: Option<u64>,
) -> Answer {
    let estimate = |days: Option<u64>| days.map(|d| json!({"unit": "business_day", "value": d}));
    fixtures::create(
        O::ShippingRate,
        json!({"display_name": display_name, "type": "fixed_amount", "fixed_amount": {"amount": amount, "currency": currency},
               "delivery_estimate": {"minimum": estimate(min_business_days), "maximum": estimate(max_business_days)}, "active": true}),
    )
}

/// Look up one delivery option and its fee.
///
/// # Arguments
/// * `shipping_rate` - Its id, `shr_...`
#[tool(group = "shipping", annotations(read_only))]
fn retrieve_shipping_rate(shipping_rate: String) -> Answer {
    fixtures::retrieve(O::ShippingRate, &shipping_rate)
}

/// Turn a delivery option on or off for checkout.
///
/// # Arguments
/// * `shipping_rate` - Its id, `shr_...`
/// * `active` - `false` to stop offering it
#[tool(group = "shipping")]
fn update_shipping_rate(shipping_rate: String, active: bool) -> Answer {
    fixtures::update(O::ShippingRate, &shipping_rate, json!({"active": active}))
}

/// Page through the delivery options.
///
/// # Arguments
/// * `active` - Only options offered (`true`) or turned off (`false`)
/// * `limit` - How many to return, 1 to 100
#[tool(group = "shipping", annotations(read_only))]
fn list_shipping_rates(active: Option<bool>, #[default(10)] limit: u64) -> Answer {
    let active = active.map(|a| a.to_string());
    fixtures::list(O::ShippingRate, &[("active", active.as_deref())], limit, None)
}

// ---------------------------------------------------------------------------------------
// billing: invoices, invoice items, credit notes

/// Start a draft invoice for a customer; pending invoice items are pulled into it.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `collection_method` - `charge_automatically` or `send_invoice` (they pay it themselves)
/// * `days_until_due` - For `send_invoice`: how many days they have to pay
/// * `description` - A memo shown on the invoice
#[tool(group = "billing")]
fn create_invoice(
    customer: String,
    #[default("charge_automatically".to_owned())] collection_method: String,
    days_until_due: Option<i64>,
    description: Option<String>,
) -> Answer {
    fixtures::require(O::Customer, &customer)?;
    fixtures::one_of(
        "collection_method",
        Some(&collection_method),
        &["charge_automatically", "send_invoice"],
    )?;
    let pending: Vec<_> = fixtures::children(O::InvoiceItem, "customer", &customer)
        .into_iter()
        .filter(|item| item["invoice"].is_null())
        .collect();
    let total: u64 = pending.iter().filter_map(|i| i["amount"].as_u64()).sum();
    let due = days_until_due.map(|days| fixtures::NOW + days * 86_400);
    let invoice = fixtures::insert(
        O::Invoice,
        json!({"customer": customer, "status": "draft", "amount_due": total, "amount_paid": 0, "currency": "usd",
               "collection_method": collection_method, "due_date": due, "description": description, "number": null}),
    );
    let id = invoice["id"].as_str().unwrap_or_default();
    for item in &pending {
        let item_id = item["id"].as_str().unwrap_or_default();
        fixtures::update(O::InvoiceItem, item_id, json!({"invoice": id}))?;
        fixtures::insert(
            O::LineItem,
            json!({"invoice": id, "description": item["description"], "amount": item["amount"], "quantity": item["quantity"]}),
        );
    }
    fixtures::render(&invoice)
}

/// Look up one invoice: status, amounts due and paid, due date.
///
/// # Arguments
/// * `invoice` - Its id, `in_...`
#[tool(group = "billing", annotations(read_only))]
fn retrieve_invoice(invoice: String) -> Answer {
    fixtures::retrieve(O::Invoice, &invoice)
}

/// Change the memo, due date or collection method of an invoice.
///
/// # Arguments
/// * `invoice` - Its id, `in_...`
/// * `description` - New memo
/// * `days_until_due` - Days from today until it is due
/// * `collection_method` - `charge_automatically` or `send_invoice`
#[tool(group = "billing")]
fn update_invoice(
    invoice: String,
    description: Option<String>,
    days_until_due: Option<i64>,
    collection_method: Option<String>,
) -> Answer {
    fixtures::one_of(
        "collection_method",
        collection_method.as_deref(),
        &["charge_automatically", "send_invoice"],
    )?;
    let due = days_until_due.map(|days| fixtures::NOW + days * 86_400);
    fixtures::transition(
        O::Invoice,
        &invoice,
        "updated",
        &["draft", "open"],
        json!({"description": description, "due_date": due, "collection_method": collection_method}),
    )
}

/// Throw away a draft invoice that was never finalized.
///
/// # Arguments
/// * `invoice` - Its id, `in_...`
#[tool(group = "billing", annotations(destructive))]
fn delete_invoice(invoice: String) -> Answer {
    let record = fixtures::require(O::Invoice, &invoice)?;
    if record["status"] != "draft" {
        return Err(ToolError::new(format!(
            "invoice `{invoice}` is `{}`; only a draft can be deleted, use `void_invoice` instead",
            record["status"].as_str().unwrap_or("unknown")
        )));
    }
    fixtures::delete(O::Invoice, &invoice)
}

/// Page through invoices, newest first, by customer or status.
///
/// # Arguments
/// * `customer` - Only this customer's, `cus_...`
/// * `status` - Only those in this state: `draft`, `open`, `paid`, `uncollectible`, `void`
/// * `subscription` - Only those of this subscription, `sub_...`
/// * `limit` - How many to return, 1 to 100
/// * `starting_after` - Id of the last one on the previous page
#[tool(group = "billing", annotations(read_only))]
fn list_invoices(
    customer: Option<String>,
    status: Option<String>,
    subscription: Option<String>,
    #[default(10)] limit: u64,
    starting_after: Option<String>,
) -> Answer {
    fixtures::list(
        O::Invoice,
        &[
            ("customer", customer.as_deref()),
            ("status", status.as_deref()),
            ("subscription", subscription.as_deref()),
        ],
        limit,
        starting_after.as_deref(),
    )
}

/// Find invoices with a query such as `status:'open' amount_due>5000`.
///
/// # Arguments
/// * `query` - Clauses `field:'value'`, `field~'value'`, `field>n`, `field<n` or bare words
/// * `limit` - How many to return, 1 to 100
#[tool(group = "billing", annotations(read_only))]
fn search_invoices(query: String, #[default(10)] limit: u64) -> Answer {
    fixtures::search(O::Invoice, &query, limit)
}

/// Turn a draft invoice into an open one with a number, ready to be paid.
///
/// # Arguments
/// * `invoice` - Its id, `in_...`
#[tool(group = "billing")]
fn finalize_invoice(invoice: String) -> Answer {
    let number = format!("SHOP-{}", invoice.trim_start_matches("in_").to_uppercase());
    fixtures::transition(
        O::Invoice,
        &invoice,
        "finalized",
        &["draft"],
        json!({"status": "open", "number": number}),
    )
}

/// Collect an open invoice now with the customer's saved payment method.
///
/// # Arguments
/// * `invoice` - Its id, `in_...`
/// * `paid_out_of_band` - Mark it paid because the money came some other way (cash, cheque)
#[tool(group = "billing", search_hint = "settle collect bill charge now")]
fn pay_invoice(invoice: String, #[default(false)] paid_out_of_band: bool) -> Answer {
    let record = fixtures::require(O::Invoice, &invoice)?;
    let due = record["amount_due"].clone();
    fixtures::transition(
        O::Invoice,
        &invoice,
        "paid",
        &["open", "uncollectible"],
        json!({"status": "paid", "amount_paid": due, "paid_out_of_band": paid_out_of_band}),
    )
}

/// Email an open invoice to the customer so they can pay it themselves.
///
/// # Arguments
/// * `invoice` - Its id, `in_...`
#[tool(group = "billing", search_hint = "email remind nudge bill")]
fn send_invoice(invoice: String) -> Answer {
    let record = fixtures::require(O::Invoice, &invoice)?;
    if record["collection_method"] != "send_invoice" {
        return Err(ToolError::new(format!(
            "invoice `{invoice}` is charged automatically; set `collection_method: send_invoice` with `update_invoice` first"
        )));
    }
    fixtures::transition(
        O::Invoice,
        &invoice,
        "sent",
        &["open"],
        json!({"status_transitions": {"sent_at": fixtures::NOW}}),
    )
}

/// Cancel a finalized invoice for good, keeping it on record with a zero balance.
///
/// # Arguments
/// * `invoice` - Its id, `in_...`
#[tool(
    group = "billing",
    search_hint = "scrap cancel bill mistake",
    annotations(destructive)
)]
fn void_invoice(invoice: String) -> Answer {
    fixtures::transition(
        O::Invoice,
        &invoice,
        "voided",
        &["open", "uncollectible"],
        json!({"status": "void"}),
    )
}

/// Give up on collecting an open invoice and record it as bad debt.
///
/// # Arguments
/// * `invoice` - Its id, `in_...`
#[tool(group = "billing", search_hint = "bad debt write off never pay")]
fn mark_invoice_uncollectible(invoice: String) -> Answer {
    fixtures::transition(
        O::Invoice,
        &invoice,
        "marked uncollectible",
        &["open"],
        json!({"status": "uncollectible"}),
    )
}

/// Preview the next invoice a subscription will produce, without creating it.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `subscription` - The subscription to preview, `sub_...`; their first one when not given
#[tool(group = "billing", annotations(read_only))]
fn create_invoice_preview(customer: String, subscription: Option<String>) -> Answer {
    fixtures::require(O::Customer, &customer)?;
    let subscription = match subscription {
        Some(id) => fixtures::require(O::Subscription, &id)?,
        None => fixtures::children(O::Subscription, "customer", &customer)
            .into_iter()
            .next()
            .ok_or_else(|| ToolError::new(format!("customer `{customer}` has no subscription to preview")))?,
    };
    if subscription["customer"] != customer.as_str() {
        return Err(ToolError::new("that subscription belongs to another customer"));
    }
    let id = subscription["id"].as_str().unwrap_or_default();
    let mut lines = Vec::new();
    let mut total = 0;
    for item in fixtures::children(O::SubscriptionItem, "subscription", id) {
        let price = fixtures::require(O::Price, item["price"].as_str().unwrap_or_default())?;
        let quantity = item["quantity"].as_u64().unwrap_or(1);
        let amount = price["unit_amount"].as_u64().unwrap_or(0) * quantity;
        total += amount;
        lines.push(json!({"price": price["id"], "quantity": quantity, "amount": amount}));
    }
    fixtures::render(&json!({
        "object": "invoice", "id": null, "customer": customer, "subscription": id, "status": "draft",
        "period_start": subscription["current_period_end"], "amount_due": total, "currency": "usd", "lines": lines,
    }))
}

/// Show the lines of an invoice: what was billed, how many, and for how much.
///
/// # Arguments
/// * `invoice` - Its id, `in_...`
#[tool(group = "billing", annotations(read_only))]
fn list_invoice_line_items(invoice: String) -> Answer {
    fixtures::require(O::Invoice, &invoice)?;
    let lines = fixtures::children(O::LineItem, "invoice", &invoice);
    fixtures::render(&json!({"object": "list", "data": lines, "has_more": false}))
}

/// Add a one-off charge for a customer, billed on their next invoice (or on a given draft).
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `amount` - In cents
/// * `currency` - Three-letter ISO code, lowercase
/// * `description` - What it is for, shown on the invoice
/// * `invoice` - A draft invoice to put it on, `in_...`
#[tool(group = "billing")]
fn create_invoice_item(
    customer: String,
    amount: u64,
    #[default("usd".to_owned())] currency: String,
    description: Option<String>,
    invoice: Option<String>,
) -> Answer {
    fixtures::require(O::Customer, &customer)?;
    if let Some(invoice) = &invoice {
        let record = fixtures::require(O::Invoice, invoice)?;
        if record["status"] != "draft" {
            return Err(ToolError::new(format!(
                "invoice `{invoice}` is no longer a draft; items go on drafts only"
            )));
        }
    }
    fixtures::create(
        O::InvoiceItem,
        json!({"customer": customer, "amount": amount, "currency": currency, "description": description, "invoice": invoice, "quantity": 1}),
    )
}

/// Look up one invoice item.
///
/// # Arguments
/// * `invoiceitem` - Its id, `ii_...`
#[tool(group = "billing", annotations(read_only))]
fn retrieve_invoice_item(invoiceitem: String) -> Answer {
    fixtures::retrieve(O::InvoiceItem, &invoiceitem)
}

/// Change the amount or text of an invoice item not yet on a finalized invoice.
///
/// # Arguments
/// * `invoiceitem` - Its id, `ii_...`
/// * `amount` - New amount in cents
/// * `description` - New text
#[tool(group = "billing")]
fn update_invoice_item(invoiceitem: String, amount: Option<u64>, description: Option<String>) -> Answer {
    fixtures::update(
        O::InvoiceItem,
        &invoiceitem,
        json!({"amount": amount, "description": description}),
    )
}

/// Remove an invoice item that is not on a finalized invoice.
///
/// # Arguments
/// * `invoiceitem` - Its id, `ii_...`
#[tool(group = "billing", annotations(destructive))]
fn delete_invoice_item(invoiceitem: String) -> Answer {
    fixtures::delete(O::InvoiceItem, &invoiceitem)
}

/// Page through invoice items, optionally one customer's or one invoice's.
///
/// # Arguments
/// * `customer` - Only this customer's, `cus_...`
/// * `invoice` - Only those on this invoice, `in_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "billing", annotations(read_only))]
fn list_invoice_items(
    customer: Option<String>,
    invoice: Option<String>,
    #[default(10)] limit: u64,
) -> Answer {
    fixtures::list(
        O::InvoiceItem,
        &[("customer", customer.as_deref()), ("invoice", invoice.as_deref())],
        limit,
        None,
    )
}

/// Reduce what a finalized invoice asks for, or credit the customer for part of it.
///
/// # Arguments
/// * `invoice` - The invoice's id, `in_...`
/// * `amount` - In cents
/// * `reason` - `duplicate`, `fraudulent`, `order_change` or `product_unsatisfactory`
/// * `memo` - A note printed on the credit note
#[tool(group = "billing")]
fn create_credit_note(invoice: String, amount: u64, reason: Option<String>, memo: Option<String>) -> Answer {
    let record = credit_check(&invoice, amount, reason.as_deref())?;
    fixtures::create(
        O::CreditNote,
        json!({"invoice": invoice, "customer": record["customer"], "amount": amount, "currency": record["currency"],
               "reason": reason, "memo": memo, "status": "issued"}),
    )
}

/// The invoice a credit note is for, once the amount and reason are checked.
fn credit_check(invoice: &str, amount: u64, reason: Option<&str>) -> Result<serde_json::Value, ToolError> {
    fixtures::one_of(
        "reason",
        reason,
        &[
            "duplicate",
            "fraudulent",
            "order_change",
            "product_unsatisfactory",
        ],
    )?;
    let record = fixtures::require(O::Invoice, invoice)?;
    if !matches!(record["status"].as_str(), Some("open" | "paid")) {
        return Err(ToolError::new(format!(
            "invoice `{invoice}` is not finalized; only an `open` or `paid` invoice can be credited"
        )));
    }
    let total = record["amount_due"].as_u64().unwrap_or(0);
    if amount == 0 || amount > total {
        return Err(ToolError::new(format!(
            "`amount` must be between 1 and the invoice's {total} cents"
        )));
    }
    Ok(record)
}

/// Look up one credit note.
///
/// # Arguments
/// * `credit_note` - Its id, `cn_...`
#[tool(group = "billing", annotations(read_only))]
fn retrieve_credit_note(credit_note: String) -> Answer {
    fixtures::retrieve(O::CreditNote, &credit_note)
}

/// Change the memo printed on a credit note.
///
/// # Arguments
/// * `credit_note` - Its id, `cn_...`
/// * `memo` - The new note
#[tool(group = "billing")]
fn update_credit_note(credit_note: String, memo: String) -> Answer {
    fixtures::update(O::CreditNote, &credit_note, json!({"memo": memo}))
}

/// Page through credit notes, optionally those of one invoice or customer.
///
/// # Arguments
/// * `invoice` - Only this invoice's, `in_...`
/// * `customer` - Only this customer's, `cus_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "billing", annotations(read_only))]
fn list_credit_notes(invoice: Option<String>, customer: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(
        O::CreditNote,
        &[("invoice", invoice.as_deref()), ("customer", customer.as_deref())],
        limit,
        None,
    )
}

/// Cancel a credit note that was issued by mistake.
///
/// # Arguments
/// * `credit_note` - Its id, `cn_...`
#[tool(group = "billing", annotations(destructive))]
fn void_credit_note(credit_note: String) -> Answer {
    fixtures::transition(
        O::CreditNote,
        &credit_note,
        "voided",
        &["issued"],
        json!({"status": "void"}),
    )
}

/// Show what a credit note would look like, without issuing it.
///
/// # Arguments
/// * `invoice` - The invoice's id, `in_...`
/// * `amount` - In cents
/// * `reason` - `duplicate`, `fraudulent`, `order_change` or `product_unsatisfactory`
#[tool(group = "billing", annotations(read_only))]
fn preview_credit_note(invoice: String, amount: u64, reason: Option<String>) -> Answer {
    let record = credit_check(&invoice, amount, reason.as_deref())?;
    let left = record["amount_due"].as_u64().unwrap_or(0) - amount;
    fixtures::render(&json!({
        "object": "credit_note", "id": null, "invoice": invoice, "customer": record["customer"], "amount": amount,
        "currency": record["currency"], "reason": reason, "status": "preview", "invoice_amount_after": left,
    }))
}

// ---------------------------------------------------------------------------------------
// quotes

/// Draft a price proposal for a customer, which becomes an invoice or subscription once accepted.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `price` - The price quoted, `price_...`
/// * `quantity` - How many
/// * `description` - A note shown on the quote
/// * `expires_in_days` - How long the offer stands
#[tool(group = "quotes")]
fn create_quote(
    customer: String,
    price: String,
    #[default(1)] quantity: u64,
    description: Option<String>,
    #[default(30)] expires_in_days: i64,
) -> Answer {
    fixtures::require(O::Customer, &customer)?;
    let record = fixtures::require(O::Price, &price)?;
    let total = record["unit_amount"].as_u64().unwrap_or(0) * quantity;
    fixtures::create(
        O::Quote,
        json!({"customer": customer, "status": "draft", "amount_total": total, "currency": record["currency"],
               "description": description, "expires_at": fixtures::NOW + expires_in_days * 86_400,
               "line_items": [{"price": price, "quantity": quantity}]}),
    )
}

/// Look up one quote and its status.
///
/// # Arguments
/// * `quote` - Its id, `qt_...`
#[tool(group = "quotes", annotations(read_only))]
fn retrieve_quote(quote: String) -> Answer {
    fixtures::retrieve(O::Quote, &quote)
}

/// Change the note or expiry of a draft quote.
///
/// # Arguments
/// * `quote` - Its id, `qt_...`
/// * `description` - New note
/// * `expires_in_days` - Days from today until the offer lapses
#[tool(group = "quotes")]
fn update_quote(quote: String, description: Option<String>, expires_in_days: Option<i64>) -> Answer {
    let expires = expires_in_days.map(|days| fixtures::NOW + days * 86_400);
    fixtures::transition(
        O::Quote,
        &quote,
        "updated",
        &["draft"],
        json!({"description": description, "expires_at": expires}),
    )
}

/// Page through quotes, optionally one customer's or by status.
///
/// # Arguments
/// * `customer` - Only this customer's, `cus_...`
/// * `status` - `draft`, `open`, `accepted` or `canceled`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "quotes", annotations(read_only))]
fn list_quotes(customer: Option<String>, status: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(
        O::Quote,
        &[("customer", customer.as_deref()), ("status", status.as_deref())],
        limit,
        None,
    )
}

/// Lock a draft quote so it can be sent to the customer.
///
/// # Arguments
/// * `quote` - Its id, `qt_...`
#[tool(group = "quotes")]
fn finalize_quote(quote: String) -> Answer {
    fixtures::transition(
        O::Quote,
        &quote,
        "finalized",
        &["draft"],
        json!({"status": "open"}),
    )
}

/// Record that the customer agreed to a quote, which creates its invoice.
///
/// # Arguments
/// * `quote` - Its id, `qt_...`
#[tool(group = "quotes")]
fn accept_quote(quote: String) -> Answer {
    fixtures::transition(
        O::Quote,
        &quote,
        "accepted",
        &["open"],
        json!({"status": "accepted"}),
    )?;
    let record = fixtures::require(O::Quote, &quote)?;
    let invoice = fixtures::insert(
        O::Invoice,
        json!({"customer": record["customer"], "status": "draft", "amount_due": record["amount_total"], "amount_paid": 0,
               "currency": record["currency"], "collection_method": "send_invoice", "description": record["description"], "quote": quote}),
    );
    fixtures::set(O::Quote, &quote, "invoice", invoice["id"].clone())
}

/// Withdraw a quote that the customer has not accepted.
///
/// # Arguments
/// * `quote` - Its id, `qt_...`
#[tool(group = "quotes", annotations(destructive))]
fn cancel_quote(quote: String) -> Answer {
    fixtures::transition(
        O::Quote,
        &quote,
        "canceled",
        &["draft", "open"],
        json!({"status": "canceled"}),
    )
}

// ---------------------------------------------------------------------------------------
// subscriptions

/// Sign a customer up to be billed for a price every interval, starting now.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `price` - The recurring price, `price_...`
/// * `quantity` - How many (seats, boxes)
/// * `trial_period_days` - Days free before the first charge
/// * `coupon` - A coupon to apply, by its id
/// * `collection_method` - `charge_automatically` or `send_invoice`
#[tool(group = "subscriptions")]
fn create_subscription(
    customer: String,
    price: String,
    #[default(1)] quantity: u64,
    trial_period_days: Option<i64>,
    coupon: Option<String>,
    #[default("charge_automatically".to_owned())] collection_method: String,
) -> Answer {
    fixtures::require(O::Customer, &customer)?;
    let record = fixtures::require(O::Price, &price)?;
    if record["type"] != "recurring" {
        return Err(ToolError::new(format!(
            "price `{price}` is one-time; a subscription needs a recurring price"
        )));
    }
    if let Some(coupon) = &coupon {
        fixtures::require(O::Coupon, coupon)?;
    }
    fixtures::one_of(
        "collection_method",
        Some(&collection_method),
        &["charge_automatically", "send_invoice"],
    )?;
    let status = if trial_period_days.is_some() {
        "trialing"
    } else {
        "active"
    };
    let subscription = fixtures::insert(
        O::Subscription,
        json!({"customer": customer, "status": status, "collection_method": collection_method,
               "trial_end": trial_period_days.map(|d| fixtures::NOW + d * 86_400),
               "current_period_end": fixtures::NOW + 30 * 86_400, "cancel_at_period_end": false,
               "discount": coupon.map(|c| json!({"coupon": c}))}),
    );
    let id = subscription["id"].as_str().unwrap_or_default();
    let item = fixtures::insert(
        O::SubscriptionItem,
        json!({"subscription": id, "price": price, "quantity": quantity}),
    );
    fixtures::set(O::Subscription, id, "items", json!([item["id"]]))
}

/// Look up one subscription: status, items, when the period ends.
///
/// # Arguments
/// * `subscription` - Its id, `sub_...`
#[tool(group = "subscriptions", annotations(read_only))]
fn retrieve_subscription(subscription: String) -> Answer {
    fixtures::retrieve(O::Subscription, &subscription)
}

/// Change a subscription: cancel at period end, pause collection, or payment method.
///
/// # Arguments
/// * `subscription` - Its id, `sub_...`
/// * `cancel_at_period_end` - `true` to end it when the paid period runs out
/// * `pause_collection` - `true` to stop invoicing for now (status `paused`), `false` to go on
/// * `default_payment_method` - The payment method to charge, `pm_...`
#[tool(group = "subscriptions")]
fn update_subscription(
    subscription: String,
    cancel_at_period_end: Option<bool>,
    pause_collection: Option<bool>,
    default_payment_method: Option<String>,
) -> Answer {
    if let Some(method) = &default_payment_method {
        fixtures::require(O::PaymentMethod, method)?;
    }
    let status = pause_collection.map(|pause| if pause { "paused" } else { "active" });
    fixtures::transition(
        O::Subscription,
        &subscription,
        "updated",
        &["active", "trialing", "past_due", "paused"],
        json!({"cancel_at_period_end": cancel_at_period_end, "status": status, "default_payment_method": default_payment_method}),
    )
}

/// End a subscription now: no more invoices, and it cannot be restarted.
///
/// # Arguments
/// * `subscription` - Its id, `sub_...`
/// * `invoice_now` - Bill what is owed so far on a last invoice
/// * `prorate` - Credit the unused part of the period
#[tool(
    group = "subscriptions",
    search_hint = "stop end unsubscribe churn terminate recurring",
    annotations(destructive)
)]
fn cancel_subscription(
    subscription: String,
    #[default(false)] invoice_now: bool,
    #[default(false)] prorate: bool,
) -> Answer {
    fixtures::transition(
        O::Subscription,
        &subscription,
        "canceled",
        &["active", "trialing", "past_due", "paused", "incomplete"],
        json!({"status": "canceled", "canceled_at": fixtures::NOW, "invoice_now": invoice_now, "prorate": prorate}),
    )
}

/// Page through subscriptions, by customer, price or status.
///
/// # Arguments
/// * `customer` - Only this customer's, `cus_...`
/// * `status` - `active`, `past_due`, `paused`, `trialing`, `canceled`
/// * `limit` - How many to return, 1 to 100
/// * `starting_after` - Id of the last one on the previous page
#[tool(group = "subscriptions", annotations(read_only))]
fn list_subscriptions(
    customer: Option<String>,
    status: Option<String>,
    #[default(10)] limit: u64,
    starting_after: Option<String>,
) -> Answer {
    fixtures::list(
        O::Subscription,
        &[("customer", customer.as_deref()), ("status", status.as_deref())],
        limit,
        starting_after.as_deref(),
    )
}

/// Find subscriptions with a query such as `status:'past_due'`.
///
/// # Arguments
/// * `query` - Clauses `field:'value'`, `field~'value'` or bare words
/// * `limit` - How many to return, 1 to 100
#[tool(group = "subscriptions", annotations(read_only))]
fn search_subscriptions(query: String, #[default(10)] limit: u64) -> Answer {
    fixtures::search(O::Subscription, &query, limit)
}

/// Start billing a paused subscription again.
///
/// # Arguments
/// * `subscription` - Its id, `sub_...`
#[tool(group = "subscriptions")]
fn resume_subscription(subscription: String) -> Answer {
    fixtures::transition(
        O::Subscription,
        &subscription,
        "resumed",
        &["paused"],
        json!({"status": "active"}),
    )
}

/// Take the coupon off a subscription; later invoices are billed in full.
///
/// # Arguments
/// * `subscription` - Its id, `sub_...`
#[tool(group = "subscriptions", annotations(destructive))]
fn delete_subscription_discount(subscription: String) -> Answer {
    let record = fixtures::require(O::Subscription, &subscription)?;
    if record["discount"].is_null() {
        return Err(ToolError::new(format!(
            "subscription `{subscription}` has no discount"
        )));
    }
    fixtures::set(O::Subscription, &subscription, "discount", json!(null))
}

/// Add another price to an existing subscription, billed with it.
///
/// # Arguments
/// * `subscription` - Its id, `sub_...`
/// * `price` - The price to add, `price_...`
/// * `quantity` - How many
#[tool(group = "subscriptions")]
fn create_subscription_item(subscription: String, price: String, #[default(1)] quantity: u64) -> Answer {
    let record = fixtures::require(O::Subscription, &subscription)?;
    fixtures::require(O::Price, &price)?;
    let item = fixtures::insert(
        O::SubscriptionItem,
        json!({"subscription": subscription, "price": price, "quantity": quantity}),
    );
    let mut items = record["items"].as_array().cloned().unwrap_or_default();
    items.push(item["id"].clone());
    fixtures::set(O::Subscription, &subscription, "items", json!(items))?;
    fixtures::render(&item)
}

/// Look up one item of a subscription: its price and quantity.
///
/// # Arguments
/// * `item` - Its id, `si_...`
#[tool(group = "subscriptions", annotations(read_only))]
fn retrieve_subscription_item(item: String) -> Answer {
    fixtures::retrieve(O::SubscriptionItem, &item)
}

/// Change the quantity or price of one item of a subscription, such as its seat count.
///
/// # Arguments
/// * `item` - Its id, `si_...`
/// * `quantity` - The new quantity
/// * `price` - Another price, `price_...`
#[tool(group = "subscriptions")]
fn update_subscription_item(item: String, quantity: Option<u64>, price: Option<String>) -> Answer {
    if let Some(price) = &price {
        fixtures::require(O::Price, price)?;
    }
    fixtures::update(
        O::SubscriptionItem,
        &item,
        json!({"quantity": quantity, "price": price}),
    )
}

/// Remove one price from a subscription that has others.
///
/// # Arguments
/// * `item` - Its id, `si_...`
#[tool(group = "subscriptions", annotations(destructive))]
fn delete_subscription_item(item: String) -> Answer {
    let record = fixtures::require(O::SubscriptionItem, &item)?;
    let subscription = record["subscription"].as_str().unwrap_or_default();
    let siblings = fixtures::children(O::SubscriptionItem, "subscription", subscription);
    if siblings.len() < 2 {
        return Err(ToolError::new(format!(
            "`{item}` is the only item of `{subscription}`; cancel the subscription instead"
        )));
    }
    fixtures::delete(O::SubscriptionItem, &item)
}

/// List the items (prices and quantities) of one subscription.
///
/// # Arguments
/// * `subscription` - Its id, `sub_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "subscriptions", annotations(read_only))]
fn list_subscription_items(subscription: String, #[default(10)] limit: u64) -> Answer {
    fixtures::require(O::Subscription, &subscription)?;
    fixtures::list(
        O::SubscriptionItem,
        &[("subscription", Some(&subscription))],
        limit,
        None,
    )
}

/// Plan changes to a customer's billing ahead of time, in phases that start on set dates.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `price` - The price of the first phase, `price_...`
/// * `start_in_days` - Days from today until the first phase starts
/// * `iterations` - How many billing periods the phase lasts
/// * `end_behavior` - `release` (keep a plain subscription) or `cancel` when the phases end
#[tool(group = "subscriptions")]
fn create_subscription_schedule(
    customer: String,
    price: String,
    #[default(0)] start_in_days: i64,
    #[default(12)] iterations: u64,
    #[default("release".to_owned())] end_behavior: String,
) -> Answer {
    fixtures::require(O::Customer, &customer)?;
    fixtures::require(O::Price, &price)?;
    fixtures::one_of("end_behavior", Some(&end_behavior), &["release", "cancel"])?;
    fixtures::create(
        O::SubscriptionSchedule,
        json!({"customer": customer, "status": "not_started", "end_behavior": end_behavior, "subscription": null,
               "phases": [{"start_date": fixtures::NOW + start_in_days * 86_400, "items": [{"price": price, "quantity": 1}], "iterations": iterations}]}),
    )
}

/// Look up one subscription schedule and its phases.
///
/// # Arguments
/// * `schedule` - Its id, `sub_sched_...`
#[tool(group = "subscriptions", annotations(read_only))]
fn retrieve_subscription_schedule(schedule: String) -> Answer {
    fixtures::retrieve(O::SubscriptionSchedule, &schedule)
}

/// Change what a subscription schedule does when its phases run out.
///
/// # Arguments
/// * `schedule` - Its id, `sub_sched_...`
/// * `end_behavior` - `release` or `cancel`
#[tool(group = "subscriptions")]
fn update_subscription_schedule(schedule: String, end_behavior: String) -> Answer {
    fixtures::one_of("end_behavior", Some(&end_behavior), &["release", "cancel"])?;
    fixtures::transition(
        O::SubscriptionSchedule,
        &schedule,
        "updated",
        &["not_started", "active"],
        json!({"end_behavior": end_behavior}),
    )
}

/// Page through subscription schedules, optionally one customer's.
///
/// # Arguments
/// * `customer` - Only this customer's, `cus_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "subscriptions", annotations(read_only))]
fn list_subscription_schedules(customer: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(
        O::SubscriptionSchedule,
        &[("customer", customer.as_deref())],
        limit,
        None,
    )
}

/// Call off a subscription schedule, and the subscription it runs.
///
/// # Arguments
/// * `schedule` - Its id, `sub_sched_...`
#[tool(group = "subscriptions", annotations(destructive))]
fn cancel_subscription_schedule(schedule: String) -> Answer {
    fixtures::transition(
        O::SubscriptionSchedule,
        &schedule,
        "canceled",
        &["not_started", "active"],
        json!({"status": "canceled"}),
    )
}

/// Detach a schedule from its subscription, which then goes on as a plain subscription.
///
/// # Arguments
/// * `schedule` - Its id, `sub_sched_...`
#[tool(group = "subscriptions")]
fn release_subscription_schedule(schedule: String) -> Answer {
    fixtures::transition(
        O::SubscriptionSchedule,
        &schedule,
        "released",
        &["not_started", "active"],
        json!({"status": "released"}),
    )
}

// ---------------------------------------------------------------------------------------
// metering

/// Report how much of a metered price a subscription item used, for usage-based billing.
///
/// # Arguments
/// * `subscription_item` - The metered item, `si_...`
/// * `quantity` - How many units were used
/// * `action` - `increment` (add to the period's total) or `set` (replace it)
#[tool(group = "metering")]
fn create_usage_record(
    subscription_item: String,
    quantity: u64,
    #[default("increment".to_owned())] action: String,
) -> Answer {
    fixtures::require(O::SubscriptionItem, &subscription_item)?;
    fixtures::one_of("action", Some(&action), &["increment", "set"])?;
    fixtures::create(
        O::UsageRecord,
        json!({"subscription_item": subscription_item, "quantity": quantity, "action": action, "timestamp": fixtures::NOW}),
    )
}

/// Total the usage reported for a subscription item in its billing period.
///
/// # Arguments
/// * `subscription_item` - The metered item, `si_...`
#[tool(group = "metering", annotations(read_only))]
fn list_usage_record_summaries(subscription_item: String) -> Answer {
    fixtures::require(O::SubscriptionItem, &subscription_item)?;
    let records = fixtures::children(O::UsageRecord, "subscription_item", &subscription_item);
    let total = records.iter().fold(0, |total, record| {
        let quantity = record["quantity"].as_u64().unwrap_or(0);
        if record["action"] == "set" {
            quantity
        } else {
            total + quantity
        }
    });
    fixtures::render(&json!({
        "object": "list", "has_more": false,
        "data": [{"object": "usage_record_summary", "subscription_item": subscription_item, "total_usage": total,
                  "period": {"start": fixtures::NOW - 30 * 86_400, "end": fixtures::NOW}}],
    }))
}

/// Define a billing meter: which usage events to count and how to add them up.
///
/// # Arguments
/// * `display_name` - What the meter is called
/// * `event_name` - The name of the events it counts
/// * `aggregation` - `count`, `sum` or `last`
#[tool(group = "metering")]
fn create_billing_meter(
    display_name: String,
    event_name: String,
    #[default("sum".to_owned())] aggregation: String,
) -> Answer {
    fixtures::one_of("aggregation", Some(&aggregation), &["count", "sum", "last"])?;
    fixtures::create(
        O::Meter,
        json!({"display_name": display_name, "event_name": event_name, "status": "active", "default_aggregation": {"formula": aggregation}}),
    )
}

/// Page through billing meters.
///
/// # Arguments
/// * `status` - `active` or `inactive`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "metering", annotations(read_only))]
fn list_billing_meters(status: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(O::Meter, &[("status", status.as_deref())], limit, None)
}

/// Stop a billing meter from taking new events.
///
/// # Arguments
/// * `meter` - Its id, `mtr_...`
#[tool(group = "metering", annotations(destructive))]
fn deactivate_billing_meter(meter: String) -> Answer {
    fixtures::transition(
        O::Meter,
        &meter,
        "deactivated",
        &["active"],
        json!({"status": "inactive"}),
    )
}

/// Send one usage event to a billing meter, counted against a customer.
///
/// # Arguments
/// * `event_name` - The meter's event name
/// * `customer` - The customer who used it, `cus_...`
/// * `value` - How much was used
#[tool(group = "metering")]
fn create_meter_event(event_name: String, customer: String, #[default(1)] value: u64) -> Answer {
    fixtures::require(O::Customer, &customer)?;
    let meters = fixtures::children(O::Meter, "event_name", &event_name);
    if meters.is_empty() {
        return Err(ToolError::new(format!(
            "no billing meter counts events named `{event_name}`; `list_billing_meters` shows them"
        )));
    }
    fixtures::create(
        O::MeterEvent,
        json!({"event_name": event_name, "payload": {"stripe_customer_id": customer, "value": value.to_string()}, "timestamp": fixtures::NOW}),
    )
}

// ---------------------------------------------------------------------------------------
// discounts

/// Make a reusable discount, a percentage or a fixed amount off, for once, some months or forever.
///
/// # Arguments
/// * `id` - A code to refer to it by, e.g. `SPRING20`; made up when not given
/// * `percent_off` - The percentage taken off, 1 to 100
/// * `amount_off` - Or a fixed amount taken off, in cents
/// * `currency` - The currency of `amount_off`
/// * `duration` - `once`, `repeating` or `forever`
/// * `duration_in_months` - For `repeating`: how many months
/// * `max_redemptions` - How many times it can be used in all
#[tool(group = "discounts", search_hint = "sale percent off deal markdown cheaper")]
fn create_coupon(
    id: Option<String>,
    percent_off: Option<u64>,
    amount_off: Option<u64>,
    currency: Option<String>,
    #[default("once".to_owned())] duration: String,
    duration_in_months: Option<u64>,
    max_redemptions: Option<u64>,
) -> Answer {
    fixtures::one_of("duration", Some(&duration), &["once", "repeating", "forever"])?;
    match (percent_off, amount_off) {
        (Some(p), None) if (1..=100).contains(&p) => {}
        (None, Some(a)) if a > 0 => {}
        _ => {
            return Err(ToolError::new(
                "give either `percent_off` (1 to 100) or `amount_off` (cents), not both",
            ));
        }
    }
    if let Some(id) = &id
        && fixtures::require(O::Coupon, id).is_ok()
    {
        return Err(ToolError::new(format!("a coupon `{id}` already exists")));
    }
    let currency = amount_off.map(|_| currency.unwrap_or_else(|| "usd".to_owned()));
    let coupon = fixtures::insert(
        O::Coupon,
        json!({"percent_off": percent_off, "amount_off": amount_off, "currency": currency, "duration": duration,
               "duration_in_months": duration_in_months, "max_redemptions": max_redemptions, "valid": true, "times_redeemed": 0}),
    );
    match id {
        Some(code) => {
            let made = coupon["id"].as_str().unwrap_or_default();
            fixtures::set(O::Coupon, made, "id", json!(code))
        }
        None => fixtures::render(&coupon),
    }
}

/// Look up one coupon and how often it was used.
///
/// # Arguments
/// * `coupon` - Its id
#[tool(group = "discounts", annotations(read_only))]
fn retrieve_coupon(coupon: String) -> Answer {
    fixtures::retrieve(O::Coupon, &coupon)
}

/// Rename a coupon (its terms cannot change once made).
///
/// # Arguments
/// * `coupon` - Its id
/// * `name` - The name customers see
#[tool(group = "discounts")]
fn update_coupon(coupon: String, name: String) -> Answer {
    fixtures::update(O::Coupon, &coupon, json!({"name": name}))
}

/// Remove a coupon so no one can apply it again; existing discounts stay.
///
/// # Arguments
/// * `coupon` - Its id
#[tool(group = "discounts", annotations(destructive))]
fn delete_coupon(coupon: String) -> Answer {
    fixtures::delete(O::Coupon, &coupon)
}

/// Page through coupons.
///
/// # Arguments
/// * `limit` - How many to return, 1 to 100
#[tool(group = "discounts", annotations(read_only))]
fn list_coupons(#[default(10)] limit: u64) -> Answer {
    fixtures::list(O::Coupon, &[], limit, None)
}

/// Make a code customers type at checkout that applies a coupon.
///
/// # Arguments
/// * `coupon` - The coupon it applies
/// * `code` - What customers type, e.g. `FRIENDS15`
/// * `max_redemptions` - How many times it can be used in all
/// * `customer` - Only this customer may use it, `cus_...`
#[tool(group = "discounts", search_hint = "voucher discount code coupon code")]
fn create_promotion_code(
    coupon: String,
    code: String,
    max_redemptions: Option<u64>,
    customer: Option<String>,
) -> Answer {
    fixtures::require(O::Coupon, &coupon)?;
    customer_exists(customer.as_deref())?;
    let code = code.to_uppercase();
    if !fixtures::children(O::PromotionCode, "code", &code).is_empty() {
        return Err(ToolError::new(format!(
            "the code `{code}` is taken by an active promotion code"
        )));
    }
    fixtures::create(
        O::PromotionCode,
        json!({"coupon": coupon, "code": code, "max_redemptions": max_redemptions, "customer": customer, "active": true, "times_redeemed": 0}),
    )
}

/// Look up one promotion code.
///
/// # Arguments
/// * `promotion_code` - Its id, `promo_...`
#[tool(group = "discounts", annotations(read_only))]
fn retrieve_promotion_code(promotion_code: String) -> Answer {
    fixtures::retrieve(O::PromotionCode, &promotion_code)
}

/// Switch a promotion code on or off.
///
/// # Arguments
/// * `promotion_code` - Its id, `promo_...`
/// * `active` - `false` to stop it being accepted
#[tool(group = "discounts")]
fn update_promotion_code(promotion_code: String, active: bool) -> Answer {
    fixtures::update(O::PromotionCode, &promotion_code, json!({"active": active}))
}

/// Page through promotion codes, optionally by code or coupon.
///
/// # Arguments
/// * `code` - Only the one customers type as this
/// * `coupon` - Only those applying this coupon
/// * `active` - Only those accepted (`true`) or switched off (`false`)
/// * `limit` - How many to return, 1 to 100
#[tool(group = "discounts", annotations(read_only))]
fn list_promotion_codes(
    code: Option<String>,
    coupon: Option<String>,
    active: Option<bool>,
    #[default(10)] limit: u64,
) -> Answer {
    let code = code.map(|c| c.to_uppercase());
    let active = active.map(|a| a.to_string());
    fixtures::list(
        O::PromotionCode,
        &[
            ("code", code.as_deref()),
            ("coupon", coupon.as_deref()),
            ("active", active.as_deref()),
        ],
        limit,
        None,
    )
}

// ---------------------------------------------------------------------------------------
// checkout

/// Open a hosted payment page for one purchase or sign-up, and get its URL to send the buyer.
///
/// # Arguments
/// * `price` - What is bought, `price_...`
/// * `quantity` - How many
/// * `mode` - `payment` (one-off), `subscription` or `setup` (save details only)
/// * `customer` - An existing customer, `cus_...`
/// * `success_url` - Where the buyer goes after paying
/// * `allow_promotion_codes` - Show a box for promotion codes
#[tool(group = "checkout", search_hint = "pay page hosted form buy online")]
fn create_checkout_session(
    price: String,
    #[default(1)] quantity: u64,
    #[default("payment".to_owned())] mode: String,
    customer: Option<String>,
    success_url: Option<String>,
    #[default(false)] allow_promotion_codes: bool,
) -> Answer {
    fixtures::one_of("mode", Some(&mode), &["payment", "subscription", "setup"])?;
    customer_exists(customer.as_deref())?;
    let record = fixtures::require(O::Price, &price)?;
    let total = record["unit_amount"].as_u64().unwrap_or(0) * quantity;
    let session = fixtures::insert(
        O::CheckoutSession,
        json!({"mode": mode, "status": "open", "payment_status": "unpaid", "customer": customer, "amount_total": total,
               "currency": record["currency"], "success_url": success_url, "allow_promotion_codes": allow_promotion_codes,
               "line_items": [{"price": price, "quantity": quantity, "amount_total": total}]}),
    );
    let id = session["id"].as_str().unwrap_or_default();
    fixtures::set(
        O::CheckoutSession,
        id,
        "url",
        json!(format!("https://checkout.stripe.com/c/pay/{id}")),
    )
}

/// Look up one checkout session: whether the buyer paid, and what for.
///
/// # Arguments
/// * `session` - Its id, `cs_...`
#[tool(group = "checkout", annotations(read_only))]
fn retrieve_checkout_session(session: String) -> Answer {
    fixtures::retrieve(O::CheckoutSession, &session)
}

/// Page through checkout sessions, by customer or status.
///
/// # Arguments
/// * `customer` - Only this customer's, `cus_...`
/// * `status` - `open`, `complete` or `expired`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "checkout", annotations(read_only))]
fn list_checkout_sessions(
    customer: Option<String>,
    status: Option<String>,
    #[default(10)] limit: u64,
) -> Answer {
    fixtures::list(
        O::CheckoutSession,
        &[("customer", customer.as_deref()), ("status", status.as_deref())],
        limit,
        None,
    )
}

/// Close an open checkout page so the buyer can no longer pay through it.
///
/// # Arguments
/// * `session` - Its id, `cs_...`
#[tool(group = "checkout", annotations(destructive))]
fn expire_checkout_session(session: String) -> Answer {
    fixtures::transition(
        O::CheckoutSession,
        &session,
        "expired",
        &["open"],
        json!({"status": "expired", "url": null}),
    )
}

/// Show what a checkout session is selling: prices, quantities and totals.
///
/// # Arguments
/// * `session` - Its id, `cs_...`
#[tool(group = "checkout", annotations(read_only))]
fn list_checkout_session_line_items(session: String) -> Answer {
    let record = fixtures::require(O::CheckoutSession, &session)?;
    fixtures::render(&json!({"object": "list", "data": record["line_items"], "has_more": false}))
}

/// Make a shareable link to a ready-made payment page that anyone can buy from, many times.
///
/// # Arguments
/// * `price` - What is sold, `price_...`
/// * `quantity` - How many per purchase
/// * `allow_promotion_codes` - Show a box for promotion codes
#[tool(group = "checkout", search_hint = "share url buy button sell online")]
fn create_payment_link(
    price: String,
    #[default(1)] quantity: u64,
    #[default(false)] allow_promotion_codes: bool,
) -> Answer {
    fixtures::require(O::Price, &price)?;
    let link = fixtures::insert(
        O::PaymentLink,
        json!({"active": true, "line_items": [{"price": price, "quantity": quantity}], "allow_promotion_codes": allow_promotion_codes}),
    );
    let id = link["id"].as_str().unwrap_or_default();
    let slug = id.trim_start_matches("plink_").to_lowercase();
    fixtures::set(
        O::PaymentLink,
        id,
        "url",
        json!(format!("https://buy.stripe.com/test_{slug}")),
    )
}

/// Look up one payment link and its URL.
///
/// # Arguments
/// * `payment_link` - Its id, `plink_...`
#[tool(group = "checkout", annotations(read_only))]
fn retrieve_payment_link(payment_link: String) -> Answer {
    fixtures::retrieve(O::PaymentLink, &payment_link)
}

/// Turn a payment link on or off, or allow promotion codes on it.
///
/// # Arguments
/// * `payment_link` - Its id, `plink_...`
/// * `active` - `false` to stop it taking payments
/// * `allow_promotion_codes` - Show a box for promotion codes
#[tool(group = "checkout")]
fn update_payment_link(
    payment_link: String,
    active: Option<bool>,
    allow_promotion_codes: Option<bool>,
) -> Answer {
    fixtures::update(
        O::PaymentLink,
        &payment_link,
        json!({"active": active, "allow_promotion_codes": allow_promotion_codes}),
    )
}

/// Page through payment links.
///
/// # Arguments
/// * `active` - Only links taking payments (`true`) or switched off (`false`)
/// * `limit` - How many to return, 1 to 100
#[tool(group = "checkout", annotations(read_only))]
fn list_payment_links(active: Option<bool>, #[default(10)] limit: u64) -> Answer {
    let active = active.map(|a| a.to_string());
    fixtures::list(O::PaymentLink, &[("active", active.as_deref())], limit, None)
}

/// Show what a payment link sells: its prices and quantities.
///
/// # Arguments
/// * `payment_link` - Its id, `plink_...`
#[tool(group = "checkout", annotations(read_only))]
fn list_payment_link_line_items(payment_link: String) -> Answer {
    let record = fixtures::require(O::PaymentLink, &payment_link)?;
    fixtures::render(&json!({"object": "list", "data": record["line_items"], "has_more": false}))
}

// ---------------------------------------------------------------------------------------
// connect

/// Open a connected account for a seller or service provider on your platform.
///
/// # Arguments
/// * `type` - `express`, `standard` or `custom`
/// * `email` - The seller's email address
/// * `country` - Two-letter country code
/// * `business_name` - The name customers see
#[tool(group = "connect")]
fn create_account(
    #[default("express".to_owned())] r#type: String,
    email: Option<String>,
    #[default("US".to_owned())] country: String,
    business_name: Option<String>,
) -> Answer {
    fixtures::one_of("type", Some(&r#type), &["express", "standard", "custom"])?;
    fixtures::create(
        O::Account,
        json!({"type": r#type, "email": email, "country": country, "business_profile": {"name": business_name},
               "charges_enabled": false, "payouts_enabled": false, "details_submitted": false}),
    )
}

/// Look up one connected account: whether it can take charges and receive payouts.
///
/// # Arguments
/// * `account` - Its id, `acct_...`
#[tool(group = "connect", annotations(read_only))]
fn retrieve_account(account: String) -> Answer {
    fixtures::retrieve(O::Account, &account)
}

/// Change a connected account's email or business name.
///
/// # Arguments
/// * `account` - Its id, `acct_...`
/// * `email` - New email address
/// * `business_name` - New name customers see
#[tool(group = "connect")]
fn update_account(account: String, email: Option<String>, business_name: Option<String>) -> Answer {
    let profile = business_name.map(|name| json!({"name": name}));
    fixtures::update(
        O::Account,
        &account,
        json!({"email": email, "business_profile": profile}),
    )
}

/// Remove a connected account from the platform for good.
///
/// # Arguments
/// * `account` - Its id, `acct_...`
#[tool(group = "connect", annotations(destructive))]
fn delete_account(account: String) -> Answer {
    fixtures::delete(O::Account, &account)
}

/// Page through the platform's connected accounts.
///
/// # Arguments
/// * `limit` - How many to return, 1 to 100
/// * `starting_after` - Id of the last one on the previous page
#[tool(group = "connect", annotations(read_only))]
fn list_accounts(#[default(10)] limit: u64, starting_after: Option<String>) -> Answer {
    fixtures::list(O::Account, &[], limit, starting_after.as_deref())
}

/// Shut a connected account out for fraud or terms violations; it can no longer charge or be paid.
///
/// # Arguments
/// * `account` - Its id, `acct_...`
/// * `reason` - `fraud`, `terms_of_service` or `other`
#[tool(group = "connect", annotations(destructive))]
fn reject_account(account: String, reason: String) -> Answer {
    fixtures::one_of("reason", Some(&reason), &["fraud", "terms_of_service", "other"])?;
    fixtures::update(
        O::Account,
        &account,
        json!({"charges_enabled": false, "payouts_enabled": false, "requirements": {"disabled_reason": format!("rejected.{reason}")}}),
    )
}

/// Get a one-time URL where a connected account's owner finishes onboarding or updates details.
///
/// # Arguments
/// * `account` - Its id, `acct_...`
/// * `type` - `account_onboarding` or `account_update`
/// * `return_url` - Where they come back to when done
#[tool(group = "connect")]
fn create_account_link(
    account: String,
    #[default("account_onboarding".to_owned())] r#type: String,
    return_url: Option<String>,
) -> Answer {
    fixtures::require(O::Account, &account)?;
    fixtures::one_of("type", Some(&r#type), &["account_onboarding", "account_update"])?;
    fixtures::render(&json!({
        "object": "account_link", "type": r#type, "return_url": return_url, "expires_at": fixtures::NOW + 300,
        "url": format!("https://connect.stripe.com/setup/e/{account}/onboard"),
    }))
}

/// Get a one-time URL that signs an Express account's owner into their dashboard.
///
/// # Arguments
/// * `account` - Its id, `acct_...`
#[tool(group = "connect")]
fn create_login_link(account: String) -> Answer {
    let record = fixtures::require(O::Account, &account)?;
    if record["type"] != "express" {
        return Err(ToolError::new(format!(
            "`{account}` is not an Express account; only those sign in with a login link"
        )));
    }
    fixtures::render(&json!({
        "object": "login_link", "url": format!("https://connect.stripe.com/express/{account}/login"),
    }))
}

/// Add a bank account where a connected account receives its payouts.
///
/// # Arguments
/// * `account` - The connected account, `acct_...`
/// * `bank_name` - The bank's name
/// * `last4` - The last four digits of the account number (test data only)
/// * `currency` - What it is paid out in
/// * `country` - Two-letter country code
#[tool(group = "connect")]
fn create_external_account(
    account: String,
    bank_name: String,
    last4: String,
    #[default("usd".to_owned())] currency: String,
    #[default("US".to_owned())] country: String,
) -> Answer {
    fixtures::require(O::Account, &account)?;
    fixtures::create(
        O::ExternalAccount,
        json!({"account": account, "bank_name": bank_name, "last4": last4, "currency": currency, "country": country,
               "default_for_currency": false, "status": "new"}),
    )
}

/// List the bank accounts a connected account is paid out to.
///
/// # Arguments
/// * `account` - The connected account, `acct_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "connect", annotations(read_only))]
fn list_external_accounts(account: String, #[default(10)] limit: u64) -> Answer {
    fixtures::require(O::Account, &account)?;
    fixtures::list(O::ExternalAccount, &[("account", Some(&account))], limit, None)
}

/// Move funds from the platform's balance to a connected account.
///
/// # Arguments
/// * `amount` - In cents
/// * `currency` - Three-letter ISO code, lowercase
/// * `destination` - The connected account, `acct_...`
/// * `description` - What it is for
/// * `transfer_group` - A label tying it to the charges it pays for
#[tool(group = "connect")]
fn create_transfer(
    amount: u64,
    #[default("usd".to_owned())] currency: String,
    destination: String,
    description: Option<String>,
    transfer_group: Option<String>,
) -> Answer {
    fixtures::require(O::Account, &destination)?;
    fixtures::create(
        O::Transfer,
        json!({"amount": amount, "currency": currency, "destination": destination, "description": description,
               "transfer_group": transfer_group, "amount_reversed": 0, "reversed": false}),
    )
}

/// Look up one transfer to a connected account.
///
/// # Arguments
/// * `transfer` - Its id, `tr_...`
#[tool(group = "connect", annotations(read_only))]
fn retrieve_transfer(transfer: String) -> Answer {
    fixtures::retrieve(O::Transfer, &transfer)
}

/// Change the description of a transfer.
///
/// # Arguments
/// * `transfer` - Its id, `tr_...`
/// * `description` - What it is for
#[tool(group = "connect")]
fn update_transfer(transfer: String, description: String) -> Answer {
    fixtures::update(O::Transfer, &transfer, json!({"description": description}))
}

/// Page through transfers, optionally those to one connected account.
///
/// # Arguments
/// * `destination` - Only those to this account, `acct_...`
/// * `transfer_group` - Only those with this label
/// * `limit` - How many to return, 1 to 100
#[tool(group = "connect", annotations(read_only))]
fn list_transfers(
    destination: Option<String>,
    transfer_group: Option<String>,
    #[default(10)] limit: u64,
) -> Answer {
    fixtures::list(
        O::Transfer,
        &[
            ("destination", destination.as_deref()),
            ("transfer_group", transfer_group.as_deref()),
        ],
        limit,
        None,
    )
}

/// Take back all or part of a transfer from the connected account it went to.
///
/// # Arguments
/// * `transfer` - Its id, `tr_...`
/// * `amount` - In cents; what is left of it when not given
/// * `description` - Why
#[tool(group = "connect")]
fn reverse_transfer(transfer: String, amount: Option<u64>, description: Option<String>) -> Answer {
    let record = fixtures::require(O::Transfer, &transfer)?;
    let reversed = record["amount_reversed"].as_u64().unwrap_or(0);
    let left = record["amount"].as_u64().unwrap_or(0) - reversed;
    let amount = amount.unwrap_or(left);
    if amount == 0 || amount > left {
        return Err(ToolError::new(format!(
            "`amount` must be between 1 and the {left} cents not yet reversed"
        )));
    }
    fixtures::update(
        O::Transfer,
        &transfer,
        json!({"amount_reversed": reversed + amount, "reversed": amount == left}),
    )?;
    fixtures::create(
        O::TransferReversal,
        json!({"transfer": transfer, "amount": amount, "currency": record["currency"], "description": description}),
    )
}

/// Look up one fee the platform took from a connected account's charge.
///
/// # Arguments
/// * `fee` - Its id, `fee_...`
#[tool(group = "connect", annotations(read_only))]
fn retrieve_application_fee(fee: String) -> Answer {
    fixtures::retrieve(O::ApplicationFee, &fee)
}

/// Page through the fees the platform collected from connected accounts.
///
/// # Arguments
/// * `charge` - Only the fee of this charge, `ch_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "connect", annotations(read_only))]
fn list_application_fees(charge: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(O::ApplicationFee, &[("charge", charge.as_deref())], limit, None)
}

/// Give back all or part of a platform fee to the connected account it was taken from.
///
/// # Arguments
/// * `fee` - The fee's id, `fee_...`
/// * `amount` - In cents; all that is left when not given
#[tool(group = "connect")]
fn create_application_fee_refund(fee: String, amount: Option<u64>) -> Answer {
    let record = fixtures::require(O::ApplicationFee, &fee)?;
    let refunded = record["amount_refunded"].as_u64().unwrap_or(0);
    let left = record["amount"].as_u64().unwrap_or(0) - refunded;
    let amount = amount.unwrap_or(left);
    if amount == 0 || amount > left {
        return Err(ToolError::new(format!(
            "`amount` must be between 1 and the {left} cents of the fee not yet refunded"
        )));
    }
    fixtures::update(
        O::ApplicationFee,
        &fee,
        json!({"amount_refunded": refunded + amount, "refunded": amount == left}),
    )?;
    fixtures::create(
        O::FeeRefund,
        json!({"fee": fee, "amount": amount, "currency": record["currency"]}),
    )
}

/// List the refunds made of one platform fee.
///
/// # Arguments
/// * `fee` - The fee's id, `fee_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "connect", annotations(read_only))]
fn list_application_fee_refunds(fee: String, #[default(10)] limit: u64) -> Answer {
    fixtures::require(O::ApplicationFee, &fee)?;
    fixtures::list(O::FeeRefund, &[("fee", Some(&fee))], limit, None)
}

// ---------------------------------------------------------------------------------------
// issuing

/// Register a person or company who may be given cards your business issues.
///
/// # Arguments
/// * `name` - Their name, as printed on cards
/// * `email` - Their email address
/// * `type` - `individual` or `company`
/// * `city` - The city of their billing address
/// * `country` - Two-letter country code of their billing address
#[tool(group = "issuing")]
fn create_cardholder(
    name: String,
    email: Option<String>,
    #[default("individual".to_owned())] r#type: String,
    city: String,
    #[default("US".to_owned())] country: String,
) -> Answer {
    fixtures::one_of("type", Some(&r#type), &["individual", "company"])?;
    fixtures::create(
        O::Cardholder,
        json!({"name": name, "email": email, "type": r#type, "status": "active",
               "billing": {"address": {"city": city, "country": country}}, "spending_controls": {"spending_limits": []}}),
    )
}

/// Look up one cardholder and their spending limits.
///
/// # Arguments
/// * `cardholder` - Their id, `ich_...`
#[tool(group = "issuing", annotations(read_only))]
fn retrieve_cardholder(cardholder: String) -> Answer {
    fixtures::retrieve(O::Cardholder, &cardholder)
}

/// Change a cardholder's email, status or monthly spending limit.
///
/// # Arguments
/// * `cardholder` - Their id, `ich_...`
/// * `email` - New email address
/// * `status` - `active` or `inactive`
/// * `monthly_limit` - Most they may spend a month, in cents
#[tool(group = "issuing")]
fn update_cardholder(
    cardholder: String,
    email: Option<String>,
    status: Option<String>,
    monthly_limit: Option<u64>,
) -> Answer {
    fixtures::one_of("status", status.as_deref(), &["active", "inactive"])?;
    let controls =
        monthly_limit.map(|amount| json!({"spending_limits": [{"amount": amount, "interval": "monthly"}]}));
    fixtures::update(
        O::Cardholder,
        &cardholder,
        json!({"email": email, "status": status, "spending_controls": controls}),
    )
}

/// Page through cardholders.
///
/// # Arguments
/// * `status` - `active`, `inactive` or `blocked`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "issuing", annotations(read_only))]
fn list_cardholders(status: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(O::Cardholder, &[("status", status.as_deref())], limit, None)
}

/// Issue a new virtual or physical company card to a cardholder.
///
/// # Arguments
/// * `cardholder` - Who gets it, `ich_...`
/// * `type` - `virtual` or `physical`
/// * `currency` - Three-letter ISO code, lowercase
/// * `daily_limit` - Most it may spend a day, in cents
#[tool(group = "issuing")]
fn create_issuing_card(
    cardholder: String,
    #[default("virtual".to_owned())] r#type: String,
    #[default("usd".to_owned())] currency: String,
    daily_limit: Option<u64>,
) -> Answer {
    fixtures::require(O::Cardholder, &cardholder)?;
    fixtures::one_of("type", Some(&r#type), &["virtual", "physical"])?;
    let limits: Vec<_> = daily_limit
        .map(|amount| json!({"amount": amount, "interval": "daily"}))
        .into_iter()
        .collect();
    let status = if r#type == "virtual" { "active" } else { "inactive" };
    fixtures::create(
        O::IssuingCard,
        json!({"cardholder": cardholder, "type": r#type, "currency": currency, "brand": "Visa", "last4": "0341",
               "status": status, "spending_controls": {"spending_limits": limits}}),
    )
}

/// Look up one issued card: its holder, status and limits.
///
/// # Arguments
/// * `card` - Its id, `ic_...`
#[tool(group = "issuing", annotations(read_only))]
fn retrieve_issuing_card(card: String) -> Answer {
    fixtures::retrieve(O::IssuingCard, &card)
}

/// Activate, freeze or cancel an issued card, or change its daily limit.
///
/// # Arguments
/// * `card` - Its id, `ic_...`
/// * `status` - `active`, `inactive` (frozen) or `canceled` (for good)
/// * `daily_limit` - Most it may spend a day, in cents
#[tool(group = "issuing")]
fn update_issuing_card(card: String, status: Option<String>, daily_limit: Option<u64>) -> Answer {
    fixtures::one_of("status", status.as_deref(), &["active", "inactive", "canceled"])?;
    let controls =
        daily_limit.map(|amount| json!({"spending_limits": [{"amount": amount, "interval": "daily"}]}));
    fixtures::transition(
        O::IssuingCard,
        &card,
        "updated",
        &["active", "inactive"],
        json!({"status": status, "spending_controls": controls}),
    )
}

/// Page through issued cards, optionally one cardholder's.
///
/// # Arguments
/// * `cardholder` - Only this cardholder's, `ich_...`
/// * `status` - `active`, `inactive` or `canceled`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "issuing", annotations(read_only))]
fn list_issuing_cards(
    cardholder: Option<String>,
    status: Option<String>,
    #[default(10)] limit: u64,
) -> Answer {
    fixtures::list(
        O::IssuingCard,
        &[
            ("cardholder", cardholder.as_deref()),
            ("status", status.as_deref()),
        ],
        limit,
        None,
    )
}

/// Look up one attempt to pay with an issued card: merchant, amount, decision.
///
/// # Arguments
/// * `authorization` - Its id, `iauth_...`
#[tool(group = "issuing", annotations(read_only))]
fn retrieve_authorization(authorization: String) -> Answer {
    fixtures::retrieve(O::Authorization, &authorization)
}

/// Page through attempts to pay with issued cards.
///
/// # Arguments
/// * `card` - Only this card's, `ic_...`
/// * `status` - `pending`, `closed` or `reversed`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "issuing", annotations(read_only))]
fn list_authorizations(card: Option<String>, status: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(
        O::Authorization,
        &[("card", card.as_deref()), ("status", status.as_deref())],
        limit,
        None,
    )
}

/// Let a pending purchase on an issued card go through.
///
/// # Arguments
/// * `authorization` - Its id, `iauth_...`
/// * `amount` - Approve only this much, in cents
#[tool(group = "issuing", search_hint = "allow ok card purchase accept spend")]
fn approve_authorization(authorization: String, amount: Option<u64>) -> Answer {
    fixtures::transition(
        O::Authorization,
        &authorization,
        "approved",
        &["pending"],
        json!({"approved": true, "status": "closed", "amount": amount}),
    )
}

/// Refuse a pending purchase on an issued card.
///
/// # Arguments
/// * `authorization` - Its id, `iauth_...`
#[tool(group = "issuing", annotations(destructive))]
fn decline_authorization(authorization: String) -> Answer {
    fixtures::transition(
        O::Authorization,
        &authorization,
        "declined",
        &["pending"],
        json!({"approved": false, "status": "closed"}),
    )
}

/// Page through the settled purchases and refunds on issued cards.
///
/// # Arguments
/// * `card` - Only this card's, `ic_...`
/// * `cardholder` - Only this cardholder's, `ich_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "issuing", annotations(read_only))]
fn list_issuing_transactions(
    card: Option<String>,
    cardholder: Option<String>,
    #[default(10)] limit: u64,
) -> Answer {
    fixtures::list(
        O::IssuingTransaction,
        &[("card", card.as_deref()), ("cardholder", cardholder.as_deref())],
        limit,
        None,
    )
}

/// Contest a purchase made with one of your issued cards, with the merchant's network.
///
/// # Arguments
/// * `transaction` - The purchase, `ipi_...`
/// * `reason` - `fraudulent`, `not_received`, `duplicate` or `other`
/// * `explanation` - What went wrong
#[tool(group = "issuing")]
fn create_issuing_dispute(transaction: String, reason: String, explanation: String) -> Answer {
    fixtures::require(O::IssuingTransaction, &transaction)?;
    fixtures::one_of(
        "reason",
        Some(&reason),
        &["fraudulent", "not_received", "duplicate", "other"],
    )?;
    fixtures::create(
        O::IssuingDispute,
        json!({"transaction": transaction, "status": "unsubmitted", "evidence": {"reason": reason, "explanation": explanation}}),
    )
}

// ---------------------------------------------------------------------------------------
// terminal

/// Pair a new in-person card reader with a store location, using the code it shows.
///
/// # Arguments
/// * `registration_code` - The words the reader shows on its screen
/// * `label` - A name to tell it apart, e.g. "Front counter"
/// * `location` - The location it is in, `tml_...`
#[tool(group = "terminal")]
fn create_terminal_reader(registration_code: String, label: String, location: String) -> Answer {
    fixtures::require(O::Location, &location)?;
    if registration_code.split('-').count() != 3 {
        return Err(ToolError::new(
            "`registration_code` is three words joined by `-`, as the reader shows it",
        ));
    }
    fixtures::create(
        O::Reader,
        json!({"label": label, "location": location, "device_type": "bbpos_wisepos_e", "status": "online", "action": null}),
    )
}

/// Look up one card reader: where it is, whether it is online, what it is doing.
///
/// # Arguments
/// * `reader` - Its id, `tmr_...`
#[tool(group = "terminal", annotations(read_only))]
fn retrieve_terminal_reader(reader: String) -> Answer {
    fixtures::retrieve(O::Reader, &reader)
}

/// Unpair a card reader from the account.
///
/// # Arguments
/// * `reader` - Its id, `tmr_...`
#[tool(group = "terminal", annotations(destructive))]
fn delete_terminal_reader(reader: String) -> Answer {
    fixtures::delete(O::Reader, &reader)
}

/// Page through card readers, optionally one location's or those online.
///
/// # Arguments
/// * `location` - Only those at this location, `tml_...`
/// * `status` - `online` or `offline`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "terminal", annotations(read_only))]
fn list_terminal_readers(
    location: Option<String>,
    status: Option<String>,
    #[default(10)] limit: u64,
) -> Answer {
    fixtures::list(
        O::Reader,
        &[("location", location.as_deref()), ("status", status.as_deref())],
        limit,
        None,
    )
}

/// Hand a payment intent to a card reader, which asks the shopper to tap or insert a card.
///
/// # Arguments
/// * `reader` - The reader, `tmr_...`
/// * `payment_intent` - What to collect, `pi_...`
#[tool(group = "terminal")]
fn process_reader_payment_intent(reader: String, payment_intent: String) -> Answer {
    let record = fixtures::require(O::Reader, &reader)?;
    fixtures::require(O::PaymentIntent, &payment_intent)?;
    if record["status"] != "online" {
        return Err(ToolError::new(format!(
            "reader `{reader}` is offline; check its power and network"
        )));
    }
    fixtures::update(
        O::Reader,
        &reader,
        json!({"action": {"type": "process_payment_intent", "status": "in_progress", "process_payment_intent": {"payment_intent": payment_intent}}}),
    )
}

/// Stop what a card reader is doing and return it to its idle screen.
///
/// # Arguments
/// * `reader` - Its id, `tmr_...`
#[tool(group = "terminal", annotations(destructive))]
fn cancel_reader_action(reader: String) -> Answer {
    let record = fixtures::require(O::Reader, &reader)?;
    if record["action"].is_null() {
        return Err(ToolError::new(format!(
            "reader `{reader}` is idle; there is nothing to cancel"
        )));
    }
    fixtures::set(O::Reader, &reader, "action", json!(null))
}

/// Add a physical store where card readers are set up.
///
/// # Arguments
/// * `display_name` - Its name, e.g. "Airport kiosk"
/// * `line1` - Street address
/// * `city` - City
/// * `postal_code` - Postal code
/// * `country` - Two-letter country code
#[tool(group = "terminal")]
fn create_terminal_location(
    display_name: String,
    line1: String,
    city: String,
    postal_code: String,
    #[default("US".to_owned())] country: String,
) -> Answer {
    fixtures::create(
        O::Location,
        json!({"display_name": display_name, "address": {"line1": line1, "city": city, "postal_code": postal_code, "country": country}}),
    )
}

/// Page through the store locations that have card readers.
///
/// # Arguments
/// * `limit` - How many to return, 1 to 100
#[tool(group = "terminal", annotations(read_only))]
fn list_terminal_locations(#[default(10)] limit: u64) -> Answer {
    fixtures::list(O::Location, &[], limit, None)
}

/// Get a short-lived secret that a point-of-sale app uses to talk to card readers.
///
/// # Arguments
/// * `location` - Limit it to readers at this location, `tml_...`
#[tool(group = "terminal")]
fn create_connection_token(location: Option<String>) -> Answer {
    if let Some(location) = &location {
        fixtures::require(O::Location, location)?;
    }
    fixtures::render(&json!({
        "object": "terminal.connection_token", "location": location,
        "secret": "pst_test_YWNjdF8xU3VubnksMjAyNi0wMS0wMQ",
    }))
}

// ---------------------------------------------------------------------------------------
// reporting

/// Run a financial report (balance, payouts, reconciliation) over a date range, as a CSV file.
///
/// Takes a moment; a client that supports tasks gets one to poll.
///
/// # Arguments
/// * `report_type` - Which report, e.g. `balance.summary.1`; `list_report_types` names them
/// * `interval_start` - Start of the period, Unix seconds
/// * `interval_end` - End of the period, Unix seconds
#[tool(group = "reporting", task)]
async fn create_report_run(
    report_type: String,
    interval_start: Option<i64>,
    interval_end: Option<i64>,
    ctx: Context,
) -> Answer {
    let kind = fixtures::require(O::ReportType, &report_type)?;
    let start = interval_start.unwrap_or(fixtures::NOW - 30 * 86_400);
    let end = interval_end.unwrap_or(fixtures::NOW);
    let available = kind["data_available_start"].as_i64().unwrap_or(0);
    if start >= end || start < available {
        return Err(ToolError::new(format!(
            "the period must start before it ends, and not before {available} (the report's first data)"
        )));
    }
    ctx.set_status(format!("running {report_type}"));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let file = fixtures::insert(
        O::File,
        json!({"filename": format!("{report_type}.csv"), "purpose": "finance_report_run", "size": 2_048, "type": "csv"}),
    );
    fixtures::create(
        O::ReportRun,
        json!({"report_type": report_type, "status": "succeeded",
               "parameters": {"interval_start": start, "interval_end": end}, "result": file["id"]}),
    )
}

/// Look up one report run and the file it produced.
///
/// # Arguments
/// * `report_run` - Its id, `frr_...`
#[tool(group = "reporting", annotations(read_only))]
fn retrieve_report_run(report_run: String) -> Answer {
    fixtures::retrieve(O::ReportRun, &report_run)
}

/// Page through report runs, newest first.
///
/// # Arguments
/// * `limit` - How many to return, 1 to 100
#[tool(group = "reporting", annotations(read_only))]
fn list_report_runs(#[default(10)] limit: u64) -> Answer {
    fixtures::list(O::ReportRun, &[], limit, None)
}

/// Look up one kind of financial report and the dates it has data for.
///
/// # Arguments
/// * `report_type` - Its id, e.g. `balance.summary.1`
#[tool(group = "reporting", annotations(read_only))]
fn retrieve_report_type(report_type: String) -> Answer {
    fixtures::retrieve(O::ReportType, &report_type)
}

/// List the kinds of financial report that can be run.
#[tool(group = "reporting", annotations(read_only))]
fn list_report_types() -> Answer {
    fixtures::list(O::ReportType, &[], 100, None)
}

// ---------------------------------------------------------------------------------------
// tax

/// Define a sales tax or VAT percentage to apply to invoices and subscriptions.
///
/// # Arguments
/// * `display_name` - What it is called on invoices, e.g. "VAT"
/// * `percentage` - The rate, e.g. 7.25
/// * `inclusive` - Whether prices already include it
/// * `country` - Two-letter country code
/// * `state` - State or province code
#[tool(group = "tax")]
fn create_tax_rate(
    display_name: String,
    percentage: f64,
    #[default(false)] inclusive: bool,
    country: Option<String>,
    state: Option<String>,
) -> Answer {
    if !(0.0..=100.0).contains(&percentage) {
        return Err(ToolError::new("`percentage` must be between 0 and 100"));
    }
    fixtures::create(
        O::TaxRate,
        json!({"display_name": display_name, "percentage": percentage, "inclusive": inclusive, "country": country,
               "state": state, "jurisdiction": state.clone().or_else(|| country.clone()), "active": true}),
    )
}

/// Look up one tax rate.
///
/// # Arguments
/// * `tax_rate` - Its id, `txr_...`
#[tool(group = "tax", annotations(read_only))]
fn retrieve_tax_rate(tax_rate: String) -> Answer {
    fixtures::retrieve(O::TaxRate, &tax_rate)
}

/// Rename a tax rate or retire it (its percentage cannot change).
///
/// # Arguments
/// * `tax_rate` - Its id, `txr_...`
/// * `display_name` - New name
/// * `active` - `false` to stop it being applied
#[tool(group = "tax")]
fn update_tax_rate(tax_rate: String, display_name: Option<String>, active: Option<bool>) -> Answer {
    fixtures::update(
        O::TaxRate,
        &tax_rate,
        json!({"display_name": display_name, "active": active}),
    )
}

/// Page through tax rates.
///
/// # Arguments
/// * `active` - Only those in use (`true`) or retired (`false`)
/// * `limit` - How many to return, 1 to 100
#[tool(group = "tax", annotations(read_only))]
fn list_tax_rates(active: Option<bool>, #[default(10)] limit: u64) -> Answer {
    let active = active.map(|a| a.to_string());
    fixtures::list(O::TaxRate, &[("active", active.as_deref())], limit, None)
}

/// Record a customer's VAT or other tax registration number, printed on their invoices.
///
/// # Arguments
/// * `customer` - The customer's id, `cus_...`
/// * `type` - The kind of number, e.g. `eu_vat`, `gb_vat`, `us_ein`, `au_abn`
/// * `value` - The number itself
#[tool(group = "tax")]
fn create_tax_id(customer: String, r#type: String, value: String) -> Answer {
    fixtures::require(O::Customer, &customer)?;
    fixtures::one_of(
        "type",
        Some(&r#type),
        &["eu_vat", "gb_vat", "us_ein", "au_abn", "ca_bn", "ch_vat"],
    )?;
    let country = value.get(..2).unwrap_or_default().to_uppercase();
    fixtures::create(
        O::TaxId,
        json!({"customer": customer, "type": r#type, "value": value, "country": country, "verification": {"status": "pending"}}),
    )
}

/// Look up one tax registration number and whether it was verified.
///
/// # Arguments
/// * `id` - Its id, `txi_...`
#[tool(group = "tax", annotations(read_only))]
fn retrieve_tax_id(id: String) -> Answer {
    fixtures::retrieve(O::TaxId, &id)
}

/// Remove a tax registration number from a customer.
///
/// # Arguments
/// * `id` - Its id, `txi_...`
#[tool(group = "tax", annotations(destructive))]
fn delete_tax_id(id: String) -> Answer {
    fixtures::delete(O::TaxId, &id)
}

/// List tax registration numbers, optionally one customer's.
///
/// # Arguments
/// * `customer` - Only this customer's, `cus_...`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "tax", annotations(read_only))]
fn list_tax_ids(customer: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(O::TaxId, &[("customer", customer.as_deref())], limit, None)
}

/// List the tax categories a product can be filed under.
///
/// # Arguments
/// * `limit` - How many to return, 1 to 100
#[tool(group = "tax", annotations(read_only))]
fn list_tax_codes(#[default(10)] limit: u64) -> Answer {
    fixtures::list(O::TaxCode, &[], limit, None)
}

/// Work out the tax due on an amount for a buyer in a given place, without charging it.
///
/// # Arguments
/// * `amount` - The price before tax, in cents
/// * `currency` - Three-letter ISO code, lowercase
/// * `country` - The buyer's two-letter country code
/// * `state` - The buyer's state or province code
#[tool(group = "tax")]
fn create_tax_calculation(
    amount: u64,
    #[default("usd".to_owned())] currency: String,
    country: String,
    state: Option<String>,
) -> Answer {
    let jurisdiction = state.clone().unwrap_or_else(|| country.clone());
    let rates = fixtures::children(O::TaxRate, "jurisdiction", &jurisdiction);
    let percentage = rates
        .first()
        .and_then(|rate| rate["percentage"].as_f64())
        .unwrap_or(0.0);
    let tax = (amount as f64 * percentage / 100.0).round() as u64;
    fixtures::create(
        O::TaxCalculation,
        json!({"amount_total": amount + tax, "tax_amount_exclusive": tax, "currency": currency,
               "customer_details": {"address": {"country": country, "state": state}},
               "tax_breakdown": [{"jurisdiction": jurisdiction, "percentage": percentage, "amount": tax}]}),
    )
}

// ---------------------------------------------------------------------------------------
// webhooks

/// Register a URL of yours to be notified when chosen things happen on the account.
///
/// # Arguments
/// * `url` - Where the notifications are posted, `https://...`
/// * `enabled_events` - The event types to send, e.g. `charge.succeeded`, or `*` for all
/// * `description` - What it is for
#[tool(group = "webhooks")]
fn create_webhook_endpoint(url: String, enabled_events: Vec<String>, description: Option<String>) -> Answer {
    if !url.starts_with("https://") {
        return Err(ToolError::new("`url` must start with `https://`"));
    }
    if enabled_events.is_empty() {
        return Err(ToolError::new(
            "`enabled_events` is empty; name event types, or `*` for all",
        ));
    }
    fixtures::create(
        O::WebhookEndpoint,
        json!({"url": url, "enabled_events": enabled_events, "description": description, "status": "enabled",
               "secret": "whsec_test_4f3c2a9b8d7e6f5a"}),
    )
}

/// Look up one webhook endpoint and the events it gets.
///
/// # Arguments
/// * `webhook_endpoint` - Its id, `we_...`
#[tool(group = "webhooks", annotations(read_only))]
fn retrieve_webhook_endpoint(webhook_endpoint: String) -> Answer {
    fixtures::retrieve(O::WebhookEndpoint, &webhook_endpoint)
}

/// Change a webhook endpoint's URL or events, or switch it off.
///
/// # Arguments
/// * `webhook_endpoint` - Its id, `we_...`
/// * `url` - New URL
/// * `enabled_events` - The event types to send instead
/// * `disabled` - `true` to stop sending to it
#[tool(group = "webhooks")]
fn update_webhook_endpoint(
    webhook_endpoint: String,
    url: Option<String>,
    enabled_events: Option<Vec<String>>,
    disabled: Option<bool>,
) -> Answer {
    let status = disabled.map(|off| if off { "disabled" } else { "enabled" });
    fixtures::update(
        O::WebhookEndpoint,
        &webhook_endpoint,
        json!({"url": url, "enabled_events": enabled_events, "status": status}),
    )
}

/// Stop sending notifications to a URL and forget it.
///
/// # Arguments
/// * `webhook_endpoint` - Its id, `we_...`
#[tool(group = "webhooks", annotations(destructive))]
fn delete_webhook_endpoint(webhook_endpoint: String) -> Answer {
    fixtures::delete(O::WebhookEndpoint, &webhook_endpoint)
}

/// List the URLs that receive notifications.
///
/// # Arguments
/// * `limit` - How many to return, 1 to 100
#[tool(group = "webhooks", annotations(read_only))]
fn list_webhook_endpoints(#[default(10)] limit: u64) -> Answer {
    fixtures::list(O::WebhookEndpoint, &[], limit, None)
}

/// Look up one event: what happened on the account, and to which object.
///
/// # Arguments
/// * `event` - Its id, `evt_...`
#[tool(group = "webhooks", annotations(read_only))]
fn retrieve_event(event: String) -> Answer {
    fixtures::retrieve(O::Event, &event)
}

/// Page through the account's activity log, newest first, optionally of one type.
///
/// # Arguments
/// * `type` - Only events of this type, e.g. `invoice.payment_failed`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "webhooks", annotations(read_only))]
fn list_events(r#type: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(O::Event, &[("type", r#type.as_deref())], limit, None)
}

// ---------------------------------------------------------------------------------------
// files

/// Upload a document, such as dispute evidence or an identity document, to the account.
///
/// # Arguments
/// * `filename` - Its name, e.g. `receipt.pdf`
/// * `purpose` - `dispute_evidence`, `identity_document`, `business_logo` or `additional_verification`
/// * `contents` - Its contents, base64
#[tool(group = "files")]
fn create_file(filename: String, purpose: String, contents: String) -> Answer {
    fixtures::one_of(
        "purpose",
        Some(&purpose),
        &[
            "dispute_evidence",
            "identity_document",
            "business_logo",
            "additional_verification",
        ],
    )?;
    let kind = filename.rsplit_once('.').map(|(_, ext)| ext.to_lowercase());
    let file = fixtures::insert(
        O::File,
        json!({"filename": filename, "purpose": purpose, "size": contents.len() * 3 / 4, "type": kind}),
    );
    let id = file["id"].as_str().unwrap_or_default();
    fixtures::set(
        O::File,
        id,
        "url",
        json!(format!("https://files.stripe.com/v1/files/{id}/contents")),
    )
}

/// Look up one uploaded file: its name, purpose and size.
///
/// # Arguments
/// * `file` - Its id, `file_...`
#[tool(group = "files", annotations(read_only))]
fn retrieve_file(file: String) -> Answer {
    fixtures::retrieve(O::File, &file)
}

/// Page through uploaded files, optionally by purpose.
///
/// # Arguments
/// * `purpose` - Only files for this, e.g. `dispute_evidence`, `finance_report_run`
/// * `limit` - How many to return, 1 to 100
#[tool(group = "files", annotations(read_only))]
fn list_files(purpose: Option<String>, #[default(10)] limit: u64) -> Answer {
    fixtures::list(O::File, &[("purpose", purpose.as_deref())], limit, None)
}

/// Make a public URL for an uploaded file, for sharing it outside the account.
///
/// # Arguments
/// * `file` - The file's id, `file_...`
/// * `expires_in_days` - Days until the URL stops working; never when not given
#[tool(group = "files")]
fn create_file_link(file: String, expires_in_days: Option<i64>) -> Answer {
    fixtures::require(O::File, &file)?;
    let link = fixtures::insert(
        O::FileLink,
        json!({"file": file, "expired": false, "expires_at": expires_in_days.map(|d| fixtures::NOW + d * 86_400)}),
    );
    let id = link["id"].as_str().unwrap_or_default();
    fixtures::set(
        O::FileLink,
        id,
        "url",
        json!(format!("https://files.stripe.com/links/{id}")),
    )
}

/// Look up one public file URL and when it expires.
///
/// # Arguments
/// * `link` - Its id, `link_...`
#[tool(group = "files", annotations(read_only))]
fn retrieve_file_link(link: String) -> Answer {
    fixtures::retrieve(O::FileLink, &link)
}

/// Change when a public file URL expires, or expire it now.
///
/// # Arguments
/// * `link` - Its id, `link_...`
/// * `expires_in_days` - Days until it stops working; 0 to expire it now
#[tool(group = "files")]
fn update_file_link(link: String, expires_in_days: i64) -> Answer {
    let expires = fixtures::NOW + expires_in_days * 86_400;
    fixtures::update(
        O::FileLink,
        &link,
        json!({"expires_at": expires, "expired": expires_in_days <= 0}),
    )
}

/// Page through public file URLs, optionally those of one file.
///
/// # Arguments
/// * `file` - Only links to this file, `file_...`
/// * `expired` - Only expired (`true`) or working (`false`) links
/// * `limit` - How many to return, 1 to 100
#[tool(group = "files", annotations(read_only))]
fn list_file_links(file: Option<String>, expired: Option<bool>, #[default(10)] limit: u64) -> Answer {
    let expired = expired.map(|e| e.to_string());
    fixtures::list(
        O::FileLink,
        &[("file", file.as_deref()), ("expired", expired.as_deref())],
        limit,
        None,
    )
}
