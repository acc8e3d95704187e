// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "core/common/progress.h"

namespace drasim {

/// Runs `steps.size()` chains of steps on up to `threads` threads (0: every core the machine
/// reports; the caller's thread is one of them), for chains whose steps do not read each other's
/// results, only each other's answers: body(c, k, abandon) returns whether chain c goes on after
/// step k, and chain c has at most steps[c] steps. The steps that count are those a run one step
/// after another would make: step k of chain c counts when steps 0..k-1 all answered true.
///
/// A thread with no step certain to count (every chain begun and each waiting on a running step's
/// answer) starts the next step of the earliest such chain ahead of that answer, instead of
/// waiting. When an earlier step of its chain then answers false, the step started ahead does not
/// count: `abandon` is raised (the step should stop soon and may return anything), and the caller
/// ignores what it wrote. Certain steps go first: a begun chain's next step, then the next chain
/// not begun, in chain order (a caller that orders its chains longest first keeps every thread busy
/// to the end).
///
/// onCounted(c, k) is called once for each step that counts, as soon as that is known, in step
/// order within a chain, one call at a time. Returns per chain how many steps counted (the first
/// ones); nullopt once `cancel` is raised (no further step starts; those running are told to
/// abandon). The first exception a step threw stops every chain and is rethrown once every thread
/// is done. Which steps run ahead depends on timing; which steps count, and so every answer the
/// caller keeps, does not.
std::optional<std::vector<size_t>> forEachChainAhead(const std::vector<size_t>& steps, unsigned threads,
    const std::function<bool(size_t chain, size_t step, const CancelToken& abandon)>& body,
    const std::function<void(size_t chain, size_t step)>& onCounted, const CancelToken* cancel = nullptr);

} // namespace drasim
