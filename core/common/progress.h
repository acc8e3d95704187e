// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <string_view>

namespace drasim {

/// Lets long core work report progress without knowing who listens (CLI on stderr, GUI via signals).
class ProgressSink
{
public:
    virtual ~ProgressSink() = default;
    /// fraction in [0, 1]; stage is a short human label ("loading", "simulating").
    virtual void progress(double fraction, std::string_view stage) = 0;
};

/// Cooperative cancellation flag, checked by long loops in the core.
class CancelToken
{
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> m_cancelled { false };
};

} // namespace drasim
