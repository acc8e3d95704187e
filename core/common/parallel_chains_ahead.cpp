// SPDX-License-Identifier: Apache-2.0
#include "core/common/parallel_chains_ahead.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <numeric>

#include "core/common/parallel_chunks.h"

namespace drasim {

namespace {

enum class Answer : signed char { Unknown, Yes, No };

struct Chain
{
    size_t limit = 0; ///< the most steps it may run
    size_t started = 0; ///< steps begun, always the first ones
    size_t settled = 0; ///< leading steps known to count (their answers known, all but the last true)
    bool ended = false; ///< a step that counts answered false, or the limit was reached
    std::vector<Answer> answers;
    std::deque<CancelToken> abandon; ///< one per started step (a deque: tokens never move)
};

class AheadPool
{
public:
    AheadPool(const std::vector<size_t>& steps, const std::function<void(size_t, size_t)>& onCounted)
        : m_onCounted(onCounted)
        , m_chains(steps.size()) // built in place: a Chain's tokens never move
    {
        for (size_t c = 0; c < steps.size(); ++c) {
            m_chains[c].limit = steps[c];
            m_chains[c].ended = steps[c] == 0;
        }
    }

    /// The next step to run and its abandon token; false when no step is left or the run stopped.
    bool take(size_t& chain, size_t& step, const CancelToken*& abandon, const CancelToken* cancel)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        for (;;) {
            if (cancel && cancel->cancelled())
                stopLocked();
            if (m_stopped)
                return false;
            if (auto c = pickLocked()) {
                Chain& ch = m_chains[*c];
                chain = *c;
                step = ch.started++;
                ch.answers.push_back(Answer::Unknown);
                abandon = &ch.abandon.emplace_back();
                ++m_running;
                return true;
            }
            if (m_running == 0)
                return false;
            m_changed.wait(lock);
        }
    }

    void finish(size_t chain, size_t step, bool answer, std::exception_ptr thrown)
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            --m_running;
            if (thrown && !m_error) {
                m_error = thrown;
                stopLocked();
            }
            Chain& ch = m_chains[chain];
            ch.answers[step] = answer ? Answer::Yes : Answer::No;
            settleLocked(chain);
        }
        m_changed.notify_all();
    }

    bool stopped() const { return m_stopped; }
    std::exception_ptr error() const { return m_error; }
    std::vector<size_t> counted() const
    {
        std::vector<size_t> out;
        for (const Chain& ch : m_chains)
            out.push_back(ch.settled);
        return out;
    }

private:
    /// A begun chain's certain next step, else the next chain not begun, else a step ahead.
    std::optional<size_t> pickLocked()
    {
        auto certain
            = [](const Chain& ch) { return !ch.ended && ch.started == ch.settled && ch.started < ch.limit; };
        for (size_t c = 0; c < m_chains.size(); ++c)
            if (m_chains[c].started > 0 && certain(m_chains[c]))
                return c;
        for (size_t c = 0; c < m_chains.size(); ++c)
            if (m_chains[c].started == 0 && certain(m_chains[c]))
                return c;
        for (size_t c = 0; c < m_chains.size(); ++c) {
            const Chain& ch = m_chains[c];
            if (!ch.ended && ch.started < ch.limit)
                return c;
        }
        return std::nullopt;
    }

    /// Moves chain c's settled prefix over the answers now known, reporting each step that counts;
    /// a false answer ends the chain and abandons the steps begun after it.
    void settleLocked(size_t c)
    {
        Chain& ch = m_chains[c];
        while (!ch.ended && ch.settled < ch.started && ch.answers[ch.settled] != Answer::Unknown) {
            const size_t k = ch.settled++;
            if (m_onCounted)
                m_onCounted(c, k);
            if (ch.answers[k] == Answer::No || ch.settled == ch.limit) {
                ch.ended = true;
                for (size_t later = k + 1; later < ch.started; ++later)
                    ch.abandon[later].cancel();
            }
        }
    }

    void stopLocked()
    {
        m_stopped = true;
        for (Chain& ch : m_chains)
            for (CancelToken& t : ch.abandon)
                t.cancel();
    }

    const std::function<void(size_t, size_t)>& m_onCounted;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<Chain> m_chains;
    size_t m_running = 0;
    bool m_stopped = false;
    std::exception_ptr m_error;
};

} // namespace

std::optional<std::vector<size_t>> forEachChainAhead(const std::vector<size_t>& steps, unsigned threads,
    const std::function<bool(size_t, size_t, const CancelToken&)>& body,
    const std::function<void(size_t, size_t)>& onCounted, const CancelToken* cancel)
{
    AheadPool pool(steps, onCounted);
    const size_t total = std::accumulate(steps.begin(), steps.end(), size_t(0));
    const unsigned workers = chunkCount(total, threads, 1);
    forEachChunk(workers, workers, [&](unsigned, size_t, size_t) {
        size_t chain = 0, step = 0;
        const CancelToken* abandon = nullptr;
        while (pool.take(chain, step, abandon, cancel)) {
            bool answer = false;
            std::exception_ptr thrown;
            try {
                answer = body(chain, step, *abandon);
            } catch (...) {
                thrown = std::current_exception();
            }
            pool.finish(chain, step, answer, thrown);
        }
    });
    if (pool.error())
        std::rethrow_exception(pool.error());
    if (pool.stopped())
        return std::nullopt;
    return pool.counted();
}

} // namespace drasim
