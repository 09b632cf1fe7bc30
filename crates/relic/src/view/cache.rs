//! Results of slow work (listing an archive, reading an entry, an item's `info`, converting, encoding a
//! file) computed once and kept by key up to a byte budget: the oldest values go first, and a value larger
//! than the whole budget is handed to those who waited for it and not kept. The first request that asks
//! for a key computes it on its own thread (a heavy worker, never a request thread: see
//! [`super::http`]); requests for a key being computed wait for that one computation instead of starting
//! another. Work may ask for other keys (an `info` for its entry's bytes): keys of an item only depend on
//! those of the items it is in, so no two computations wait for each other. Errors are
//! kept too: keys name the version of the file they come from (its size and modification time, see
//! [`super::tree::Data::key`]), so a file changed on disk is a new key. A panic in a format becomes an error
//! for its key, never a hung request.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// A value kept, or the one-line error that computing it gave.
pub(super) type Outcome<V> = Result<V, String>;

/// How an error ends when its file was cut short while it was read: such an outcome is handed to those who
/// waited for it and not kept, since the file's version may not say the file changed.
pub(super) const CUT_SHORT: &str = "was cut short while it was read: ask again";

struct Slot<V> {
    value: Mutex<Option<Outcome<V>>>,
    ready: Condvar,
}

struct Inner<V> {
    /// Each key's slot, its size once filled, and the slot's number (a key evicted and asked again is a new
    /// slot, which the old one's eviction must leave alone).
    slots: HashMap<String, (Arc<Slot<V>>, usize, u64)>,
    /// Keys in the order they were filled, oldest first (evicted first).
    order: VecDeque<(String, u64)>,
    bytes: usize,
    next: u64,
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
        let inner = Inner { slots: HashMap::new(), order: VecDeque::new(), bytes: 0, next: 0 };
        Cache { inner: Mutex::new(inner), budget, size_of }
    }

    /// The value for `key`, computing it with `work` on this thread when no one has.
    pub(super) fn get(&self, key: &str, work: impl FnOnce() -> Outcome<V>) -> Outcome<V> {
        let (slot, fresh) = {
            let mut inner = lock(&self.inner);
            match inner.slots.get(key) {
                Some((slot, _, _)) => (Arc::clone(slot), None),
                None => {
                    let slot = Arc::new(Slot { value: Mutex::new(None), ready: Condvar::new() });
                    let id = inner.next;
                    inner.next += 1;
                    inner.slots.insert(key.to_string(), (Arc::clone(&slot), 0, id));
                    (slot, Some(id))
                }
            }
        };
        if let Some(id) = fresh {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
                .unwrap_or_else(|_| Err("relic failed on this item (a bug: please report it)".to_string()));
            let cut = outcome.as_ref().is_err_and(|e| e.ends_with(CUT_SHORT));
            let size = if cut { usize::MAX } else { outcome.as_ref().map_or(64, |v| (self.size_of)(v)) + key.len() };
            // Counted (and older values evicted) before anyone sees the value.
            self.filled(key.to_string(), id, size);
            *lock(&slot.value) = Some(outcome.clone());
            slot.ready.notify_all();
            return outcome;
        }
        let mut value = lock(&slot.value);
        loop {
            if let Some(v) = value.as_ref() {
                return v.clone();
            }
            value = slot.ready.wait(value).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Counts a filled slot and evicts the oldest ones past the budget; a value larger than the budget on
    /// its own is not kept at all.
    fn filled(&self, key: String, id: u64, size: usize) {
        let mut inner = lock(&self.inner);
        let ours = matches!(inner.slots.get(&key), Some((_, _, i)) if *i == id);
        if !ours {
            return;
        }
        if size > self.budget {
            inner.slots.remove(&key);
            return;
        }
        if let Some(entry) = inner.slots.get_mut(&key) {
            entry.1 = size;
        }
        inner.bytes += size;
        inner.order.push_back((key, id));
        while inner.bytes > self.budget {
            let Some((old, old_id)) = inner.order.pop_front() else { break };
            if matches!(inner.slots.get(&old), Some((_, _, i)) if *i == old_id) {
                if let Some((_, size, _)) = inner.slots.remove(&old) {
                    inner.bytes = inner.bytes.saturating_sub(size);
                }
            }
        }
    }

    /// Bytes kept (for tests).
    #[cfg(test)]
    fn kept(&self) -> usize {
        lock(&self.inner).bytes
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

    #[test]
    fn a_value_larger_than_the_budget_is_given_and_not_kept() {
        let cache: Arc<Cache<Arc<Vec<u8>>>> = Arc::new(Cache::new(100, |v| v.len()));
        assert_eq!(cache.get("small", || Ok(Arc::new(vec![0; 40]))).unwrap().len(), 40);
        let kept = cache.kept();
        assert_eq!(cache.get("huge", || Ok(Arc::new(vec![0; 1000]))).unwrap().len(), 1000);
        assert_eq!(cache.kept(), kept, "the huge value is not counted, the small one stays");
        assert_eq!(cache.get("small", || Err("recomputed".into())).unwrap().len(), 40);
        assert_eq!(cache.get("huge", || Err("recomputed".into())), Err("recomputed".to_string()));
        assert!(cache.kept() <= 100);
    }
}
