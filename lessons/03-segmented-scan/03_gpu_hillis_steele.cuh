// Lesson 03, step 03's building block, used by every later GPU step: the segmented operator.
//
// A segmented scan is an ordinary scan over pairs (flag, value) with the operator
//
//   (f1, v1) + (f2, v2) = (f1 | f2,  f2 ? v2 : v1 op v2)
//
// read "the earlier stretch, then the later one": if a segment starts anywhere in the later stretch,
// nothing before it matters and its own value stands; otherwise the later value continues the earlier
// one. The flag of the result says whether a segment starts anywhere in the whole stretch. This operator
// is associative whenever op is, so every parallel scan of this lesson is a plain scan of pairs, and
// the flags travel with the values. It is not commutative: which side is earlier matters.
#pragma once

#include <cstdint>

namespace segscan {

/// A stretch of the input: its running value, and whether a segment starts in it.
template <class T>
struct Flagged {
  T value;
  std::uint8_t flag;
};

/// The segmented operator: `earlier` followed by `later`.
template <class Op, class T>
__host__ __device__ inline Flagged<T> segmented(const Flagged<T>& earlier, const Flagged<T>& later) {
  return {later.flag ? later.value : Op()(earlier.value, later.value),
          static_cast<std::uint8_t>(earlier.flag | later.flag)};
}

}  // namespace segscan
