//! Token usage and its cost: a pricing table the caller fills (no price is
//! built in).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

/// Token counts reported by a provider for one call.
///
/// OpenAI's `prompt_tokens` / `completion_tokens` /
/// `prompt_tokens_details.cached_tokens` and Anthropic's `input_tokens` /
/// `output_tokens` / `cache_read_input_tokens` /
/// `cache_creation_input_tokens` all land here. `input_tokens` counts every
/// input token, cached ones included.
///
/// ```
/// use mplp_dialog::agent::Usage;
/// let total = Usage::new(100, 20) + Usage::new(50, 5);
/// assert_eq!((total.input_tokens, total.output_tokens), (150, 25));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Usage {
    /// Input (prompt) tokens, cached ones included.
    pub input_tokens: u64,
    /// Output (completion) tokens.
    pub output_tokens: u64,
    /// Input tokens read from the provider's prompt cache (part of `input_tokens`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_read_tokens: u64,
    /// Input tokens written to the provider's prompt cache (part of `input_tokens`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_write_tokens: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Usage {
    /// Usage with input and output tokens and no cache.
    pub fn new(input_tokens: u64, output_tokens: u64) -> Self {
        Usage {
            input_tokens,
            output_tokens,
            cache_read_tokens: 0,
            cache_write_tokens: 0,
        }
    }

    /// The same usage with cache reads and writes (both are part of `input_tokens`).
    #[must_use]
    pub fn with_cache(mut self, read: u64, write: u64) -> Self {
        self.cache_read_tokens = read;
        self.cache_write_tokens = write;
        self
    }

    /// Input plus output tokens.
    pub fn total_tokens(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

impl Add for Usage {
    type Output = Usage;
    fn add(self, o: Usage) -> Usage {
        Usage {
            input_tokens: self.input_tokens.saturating_add(o.input_tokens),
            output_tokens: self.output_tokens.saturating_add(o.output_tokens),
            cache_read_tokens: self.cache_read_tokens.saturating_add(o.cache_read_tokens),
            cache_write_tokens: self.cache_write_tokens.saturating_add(o.cache_write_tokens),
        }
    }
}

impl AddAssign for Usage {
    fn add_assign(&mut self, o: Usage) {
        *self = *self + o;
    }
}

impl std::iter::Sum for Usage {
    fn sum<I: Iterator<Item = Usage>>(iter: I) -> Usage {
        iter.fold(Usage::default(), Add::add)
    }
}

/// The price of one model, in dollars per million tokens.
///
/// Cached input tokens are charged at their own price and not again at the
/// input price: `cost = (input - cache_read - cache_write) × input
/// + cache_read × cache_read_price + cache_write × cache_write_price
/// + output × output_price`, all over one million.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Price {
    /// Dollars per million uncached input tokens.
    pub input: f64,
    /// Dollars per million output tokens.
    pub output: f64,
    /// Dollars per million input tokens read from the cache.
    #[serde(default)]
    pub cache_read: f64,
    /// Dollars per million input tokens written to the cache.
    #[serde(default)]
    pub cache_write: f64,
}

impl Price {
    /// A price for input and output tokens; cached tokens cost as much as
    /// uncached input until [`Price::with_cache`] says otherwise.
    pub fn new(input: f64, output: f64) -> Self {
        Price {
            input,
            output,
            cache_read: input,
            cache_write: input,
        }
    }

    /// The same price with cache read and write prices.
    #[must_use]
    pub fn with_cache(mut self, read: f64, write: f64) -> Self {
        self.cache_read = read;
        self.cache_write = write;
        self
    }

    /// The dollar cost of `usage` at this price.
    pub fn cost(&self, usage: &Usage) -> f64 {
        let cached = usage
            .cache_read_tokens
            .saturating_add(usage.cache_write_tokens);
        let uncached = usage.input_tokens.saturating_sub(cached);
        // u64 → f64 rounds above 2^53 tokens, far beyond any bill.
        #[allow(clippy::cast_precision_loss)]
        let dollars = uncached as f64 * self.input
            + usage.cache_read_tokens as f64 * self.cache_read
            + usage.cache_write_tokens as f64 * self.cache_write
            + usage.output_tokens as f64 * self.output;
        dollars / 1_000_000.0
    }
}

/// Prices by model name, filled by the caller (the SDK ships none: prices
/// change, and a wrong built-in price is worse than none).
///
/// ```
/// use mplp_dialog::agent::{Price, PricingTable, Usage};
/// let mut prices = PricingTable::new();
/// prices.insert("my-model", Price::new(2.0, 8.0));
/// let c = prices.cost(Some("my-model"), &Usage::new(1_000_000, 500_000)).unwrap();
/// assert!((c - 6.0).abs() < 1e-9);
/// assert_eq!(prices.cost(Some("other"), &Usage::new(1, 1)), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PricingTable {
    prices: BTreeMap<String, Price>,
}

impl PricingTable {
    /// An empty table.
    pub fn new() -> Self {
        PricingTable::default()
    }

    /// Sets the price of `model` (replacing an earlier one).
    pub fn insert(&mut self, model: impl Into<String>, price: Price) -> &mut Self {
        self.prices.insert(model.into(), price);
        self
    }

    /// The price of `model`, if known.
    pub fn get(&self, model: &str) -> Option<&Price> {
        self.prices.get(model)
    }

    /// The dollar cost of `usage` by `model`; `None` when the model is not
    /// given or has no price.
    pub fn cost(&self, model: Option<&str>, usage: &Usage) -> Option<f64> {
        model.and_then(|m| self.get(m)).map(|p| p.cost(usage))
    }
}

/// What a dialog (or a message) cost: its token usage, and the dollars of
/// the part whose model has a price (the seed's `InvokeCost`).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Cost {
    /// Every message's usage added up.
    pub usage: Usage,
    /// Usage by model (`""` for messages without a model).
    pub by_model: BTreeMap<String, Usage>,
    /// The dollars of the usage whose model has a price.
    pub dollars: f64,
    /// Models that have usage but no price (their usage is not in `dollars`);
    /// `""` stands for messages with usage but no model.
    pub unpriced: BTreeSet<String>,
}

impl Cost {
    /// Adds one message's usage.
    pub(crate) fn add(&mut self, model: Option<&str>, usage: &Usage, prices: &PricingTable) {
        self.usage += *usage;
        let key = model.unwrap_or_default();
        *self.by_model.entry(key.to_owned()).or_default() += *usage;
        match prices.cost(model, usage) {
            Some(d) => self.dollars += d,
            None => {
                self.unpriced.insert(key.to_owned());
            }
        }
    }

    /// True when every usage had a price, so `dollars` is the whole cost.
    pub fn is_complete(&self) -> bool {
        self.unpriced.is_empty()
    }
}
