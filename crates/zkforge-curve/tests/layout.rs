//! Point layouts are fixed and padding-free (issue 16: the GPU backend uploads point slices as
//! they are): `Affine` is exactly x then y, `Jacobian` X, Y, Z and `Xyzz` X, Y, ZZ, ZZZ, each
//! coordinate its Montgomery limbs; the identity is the all-zero affine point.

use core::mem::{align_of, size_of};

use zkforge_curve::point::{Affine, Jacobian, Xyzz};
use zkforge_curve::{bls12_381, bn254, CurveConfig};

fn check<C: CurveConfig>(base_bytes: usize) {
    assert_eq!(size_of::<C::Base>(), base_bytes, "{}", C::NAME);
    assert_eq!(size_of::<Affine<C>>(), 2 * base_bytes, "{}", C::NAME);
    assert_eq!(size_of::<Jacobian<C>>(), 3 * base_bytes, "{}", C::NAME);
    assert_eq!(size_of::<Xyzz<C>>(), 4 * base_bytes, "{}", C::NAME);
    assert_eq!(align_of::<Affine<C>>(), 8, "{}", C::NAME);
    // the identity is all zero bytes
    let id = Affine::<C>::IDENTITY;
    // SAFETY: Affine<C> is repr(C) over u64 limbs with no padding (sizes asserted above), so
    // every byte of it is initialised.
    let bytes = unsafe { core::slice::from_raw_parts(&id as *const Affine<C> as *const u8, size_of::<Affine<C>>()) };
    assert!(bytes.iter().all(|&b| b == 0), "{}", C::NAME);
    // x comes first, then y, each as its Montgomery limbs
    let g = Affine::<C>::generator();
    // SAFETY: as above.
    let gb = unsafe { core::slice::from_raw_parts(&g as *const Affine<C> as *const u8, size_of::<Affine<C>>()) };
    let x = g.x();
    // SAFETY: C::Base is repr(transparent)/repr(C) over u64 limbs, no padding (size asserted).
    let xb = unsafe { core::slice::from_raw_parts(&x as *const C::Base as *const u8, base_bytes) };
    assert_eq!(&gb[..base_bytes], xb, "{}", C::NAME);
}

#[test]
fn point_layouts_have_no_padding() {
    check::<bls12_381::G1Config>(48);
    check::<bls12_381::G2Config>(96);
    check::<bn254::G1Config>(32);
    check::<bn254::G2Config>(64);
}

#[test]
fn identity_is_zero_zero_and_not_from_xy() {
    use zkforge_field::bls12_381::Fp;
    assert!(bool::from(bls12_381::G1Affine::new_unchecked(Fp::ZERO, Fp::ZERO).is_identity()));
    assert!(bls12_381::G1Affine::from_xy(Fp::ZERO, Fp::ZERO).is_err());
    let g = bls12_381::G1Affine::generator();
    assert!(!bool::from(g.is_identity()));
    assert_eq!(-bls12_381::G1Affine::IDENTITY, bls12_381::G1Affine::IDENTITY);
}
