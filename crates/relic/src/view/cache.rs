//! Results of slow work (listing an archive, converting an item, encoding a file) computed once, on
//! rayon's pool rather than on the request thread, and kept by key up to a byte budget. Requests for a key
//! being computed wait for that one computation instead of starting another. Errors are kept too (the
//! bytes under the root do not change while they are viewed); a panic in a format becomes an error for its
//! key, never a hung request.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// A value kept, or the one-line error that computing it gave.
pub(super) type Outcome<V> = Result<V, String>;

struct Slot<V> {
    value: Mutex<Option<Outcome<V>>>,
    ready: Condvar,
}

struct Inner<V> {
    slots: HashMap<String, (Arc<Slot<V>>, usize)>,
    /// Keys in the order they were filled, oldest first (evicted first).
    order: VecDeque<String>,
    bytes: usize,
}

pub(super) struct Cache<V> {
    inner: Mutex<Inner<V>>,
    budget: usize,
    size_of: fn(&V) -> usize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<V: Clone + Send + 'static> Cache<V> {
    pub(super) fn new(budget: usize, size_of: fn(&V) -> usize) -> Self {
        Cache { inner: Mutex::new(Inner { slots: HashMap::new(), order: VecDeque::new(), bytes: 0 }), budget, size_of }
    }

    /// The value for `key`, computing it with `work` on rayon's pool when no one has.
    pub(super) fn get(self: &Arc<Self>, key: &str, work: impl FnOnce() -> Outcome<V> + Send + 'static) -> Outcome<V> {
        let (slot, fresh) = {
            let mut inner = lock(&self.inner);
            match inner.slots.get(key) {
                Some((slot, _)) => (Arc::clone(slot), false),
                None => {
                    let slot = Arc::new(Slot { value: Mutex::new(None), ready: Condvar::new() });
                    inner.slots.insert(key.to_string(), (Arc::clone(&slot), 0));
                    (slot, true)
                }
            }
        };
        if fresh {
            let (cache, slot, key) = (Arc::clone(self), Arc::clone(&slot), key.to_string());
            rayon::spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
                    .unwrap_or_else(|_| Err("relic failed on this item (a bug: please report it)".to_string()));
                let size = outcome.as_ref().map_or(64, |v| (cache.size_of)(v)) + key.len();
                // Counted (and older values evicted) before anyone sees the value.
                cache.filled(key, size);
                *lock(&slot.value) = Some(outcome);
                slot.ready.notify_all();
            });
        }
        let mut value = lock(&slot.value);
        loop {
            if let Some(v) = value.as_ref() {
                return v.clone();
            }
            value = slot.ready.wait(value).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Counts a filled slot and evicts the oldest ones past the budget (never the newest).
    fn filled(&self, key: String, size: usize) {
        let mut inner = lock(&self.inner);
        if let Some(entry) = inner.slots.get_mut(&key) {
            entry.1 = size;
        }
        inner.bytes += size;
        inner.order.push_back(key);
        while inner.bytes > self.budget && inner.order.len() > 1 {
            let Some(old) = inner.order.pop_front() else { break };
            if let Some((_, size)) = inner.slots.remove(&old) {
                inner.bytes = inner.bytes.saturating_sub(size);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn computes_once_and_evicts_past_the_budget() {
        let cache: Arc<Cache<Arc<Vec<u8>>>> = Arc::new(Cache::new(100, |v| v.len()));
        let runs = Arc::new(AtomicUsize::new(0));
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let (cache, runs) = (Arc::clone(&cache), Arc::clone(&runs));
                std::thread::spawn(move || {
                    cache.get("a", move || {
                        runs.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(50));
                        Ok(Arc::new(vec![1; 60]))
                    })
                })
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap().unwrap().len(), 60);
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(cache.get("b", || Ok(Arc::new(vec![2; 60]))).unwrap().len(), 60);
        // Filling `b` evicted `a`: asking again computes it again.
        let again = cache.get("a", || Err("recomputed".into()));
        assert_eq!(again, Err("recomputed".to_string()));
        let panicked = cache.get("p", || panic!("boom"));
        assert!(panicked.unwrap_err().contains("bug"));
    }
}
