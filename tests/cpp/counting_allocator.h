#pragma once
// A test-only view of the heap: the bytes the program holds through operator new now, the peak
// since the last reset, and the bytes asked for since then. The replacement operators live in
// counting_allocator.cpp (linked into the test binary once).
#include <cstddef>

namespace urnforest_test {

/// Heap use since the last ResetHeapCount, in bytes of operator new (all threads).
struct HeapCount {
  size_t peak_extra = 0;  ///< Largest (held - held at reset) reached.
  size_t allocated = 0;   ///< Sum of every allocation's size (cumulative work).
};

/// Starts counting from the bytes held now.
void ResetHeapCount();
/// The counts since the last reset.
HeapCount ReadHeapCount();

}  // namespace urnforest_test
