//! rayon's parallel iterators with the `parallel` feature, else the same calls on std's sequential
//! iterators, so that a call site reads the same in both builds (`use crate::parallel::prelude::*` instead
//! of a `cfg` at each). Written here rather than taken from `maybe-rayon`: it is a few lines and covers
//! exactly the calls relic makes (`par_iter`, `par_iter_mut`, `into_par_iter`, then std's adapters).

#[cfg(feature = "parallel")]
pub use rayon::prelude;

#[cfg(not(feature = "parallel"))]
pub mod prelude {
    /// `into_par_iter`: `into_iter`.
    pub trait IntoParallelIterator: IntoIterator + Sized {
        fn into_par_iter(self) -> Self::IntoIter {
            self.into_iter()
        }
    }
    impl<T: IntoIterator> IntoParallelIterator for T {}

    /// `par_iter`: `iter`.
    pub trait IntoParallelRefIterator<'data> {
        type Iter: Iterator;
        fn par_iter(&'data self) -> Self::Iter;
    }
    impl<'data, I: 'data + ?Sized> IntoParallelRefIterator<'data> for I
    where
        &'data I: IntoIterator,
    {
        type Iter = <&'data I as IntoIterator>::IntoIter;
        fn par_iter(&'data self) -> Self::Iter {
            self.into_iter()
        }
    }

    /// `par_iter_mut`: `iter_mut`.
    pub trait IntoParallelRefMutIterator<'data> {
        type Iter: Iterator;
        fn par_iter_mut(&'data mut self) -> Self::Iter;
    }
    impl<'data, I: 'data + ?Sized> IntoParallelRefMutIterator<'data> for I
    where
        &'data mut I: IntoIterator,
    {
        type Iter = <&'data mut I as IntoIterator>::IntoIter;
        fn par_iter_mut(&'data mut self) -> Self::Iter {
            self.into_iter()
        }
    }
}
