// SPDX-License-Identifier: Apache-2.0
#include "core/planner/search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <set>

namespace drasim::planner {

namespace {

/// The smallest b in [0, hi] that meets the levels, by bisection; hi is probed first unless it
/// is already known to meet them.
class LineSearch
{
public:
    void reset(int hi, bool hiKnown)
    {
        m_lo = -1;
        m_hi = hi;
        m_hiKnown = hiKnown;
        m_done = false;
        m_result.reset();
        settle();
    }
    bool done() const { return m_done; }
    const std::optional<int>& result() const { return m_result; }
    int hi() const { return m_hi; }
    int probe() const { return m_hiKnown ? m_lo + (m_hi - m_lo) / 2 : m_hi; }
    void feed(bool feasible)
    {
        const int b = probe();
        if (!m_hiKnown) {
            if (!feasible) {
                m_done = true;
                return;
            }
            m_hiKnown = true;
        } else if (feasible) {
            m_hi = b;
        } else {
            m_lo = b;
        }
        settle();
    }
    int64_t remaining() const
    {
        if (m_done)
            return 0;
        return int64_t(std::ceil(std::log2(double(m_hi - m_lo) + 1))) + (m_hiKnown ? 0 : 1);
    }

private:
    void settle()
    {
        if (!m_done && m_hiKnown && m_hi - m_lo <= 1) {
            m_done = true;
            m_result = m_hi;
        }
    }

    int m_lo = -1;
    int m_hi = 0;
    bool m_hiKnown = false;
    bool m_done = true;
    std::optional<int> m_result;
};

/// What a unit may conclude without simulating: a mix at or above one that met every level
/// meets them; one at or below a mix that missed misses.
class Knowledge
{
public:
    void add(const Mix& m, bool feasible) { (feasible ? m_feasible : m_infeasible).push_back(m); }
    std::optional<bool> infer(const Mix& m) const
    {
        for (const auto& f : m_feasible)
            if (atLeast(m, f))
                return true;
        for (const auto& f : m_infeasible)
            if (atLeast(f, m))
                return false;
        return std::nullopt;
    }

private:
    static bool atLeast(const Mix& a, const Mix& b)
    {
        for (size_t i = 0; i < a.size(); ++i)
            if (a[i] < b[i])
                return false;
        return true;
    }
    std::vector<Mix> m_feasible;
    std::vector<Mix> m_infeasible;
};

class Unit
{
public:
    /// `shared`: what other units learned that this one may use; `publish`: where this unit's own
    /// answers go for the others (the bisections of one load level share theirs; a slice keeps its
    /// own, so that a shard's slice decides as it would in one process).
    explicit Unit(size_t load, const Knowledge* shared, Knowledge* publish = nullptr)
        : load(load)
        , m_shared(shared)
        , m_publish(publish)
    { }
    virtual ~Unit() = default;
    /// The mix whose answer the unit needs next; nullopt when it is finished.
    virtual std::optional<Mix> next() const = 0;
    virtual void feed(bool feasible) = 0;
    virtual int64_t remaining() const = 0;

    std::optional<bool> infer(const Mix& m) const
    {
        if (auto v = own.infer(m))
            return v;
        return m_shared ? m_shared->infer(m) : std::nullopt;
    }
    void learn(const Mix& m, bool feasible)
    {
        own.add(m, feasible);
        if (m_publish)
            m_publish->add(m, feasible);
    }

    const size_t load;
    Knowledge own;
    /// The seed that missed in this unit's last answer that missed: its next probe tries that seed
    /// first (seeds that miss on one mix tend to miss on its neighbours, and the first miss
    /// decides a mix). Only the unit's own answers set it, so a shard's unit makes the same choice.
    std::optional<uint64_t> firstSeed;

private:
    const Knowledge* m_shared;
    Knowledge* m_publish;
};

/// One mix asked once: the owned cluster alone (the mix of zeros).
class SingleProbe : public Unit
{
public:
    SingleProbe(size_t load, Knowledge* publish, Mix mix)
        : Unit(load, nullptr, publish)
        , m_mix(std::move(mix))
    { }
    std::optional<Mix> next() const override { return m_asked ? std::nullopt : std::optional<Mix>(m_mix); }
    void feed(bool) override { m_asked = true; }
    int64_t remaining() const override { return m_asked ? 0 : 1; }

private:
    Mix m_mix;
    bool m_asked = false;
};

/// One shape alone, counts 0..cap.
class ShapeBisection : public Unit
{
public:
    ShapeBisection(size_t load, Knowledge* levelKnowledge, size_t shape, size_t shapes, int cap)
        : Unit(load, levelKnowledge, levelKnowledge)
        , shape(shape)
        , m_shapes(shapes)
        , cap(cap)
    {
        line.reset(cap, false);
    }
    std::optional<Mix> next() const override
    {
        if (line.done())
            return std::nullopt;
        Mix m(m_shapes, 0);
        m[shape] = line.probe();
        return m;
    }
    void feed(bool feasible) override { line.feed(feasible); }
    int64_t remaining() const override { return line.remaining(); }

    const size_t shape;
    size_t m_shapes;
    const int cap;
    LineSearch line;
};

/// Every mix with a fixed prefix: a staircase walk over the last two shapes.
class SliceWalk : public Unit
{
public:
    SliceWalk(size_t load, const Knowledge* shared, Mix prefix, int maxA, int maxB,
        std::function<bool(const Mix&)> allowed)
        : Unit(load, shared)
        , m_mix(std::move(prefix))
        , m_maxA(maxA)
        , m_hiB(maxB)
        , m_allowed(std::move(allowed))
    {
        startColumn();
    }
    std::optional<Mix> next() const override
    {
        if (m_done)
            return std::nullopt;
        return at(m_a, m_line.probe());
    }
    void feed(bool feasible) override
    {
        m_line.feed(feasible);
        if (m_line.done()) {
            finishColumn();
            startColumn();
        }
    }
    int64_t remaining() const override
    {
        if (m_done)
            return 0;
        return m_line.remaining() + int64_t(m_maxA - m_a) * int64_t(std::ceil(std::log2(double(m_hiB) + 2)));
    }

private:
    Mix at(int a, int b) const
    {
        Mix m = m_mix;
        m[m.size() - 2] = a;
        m[m.size() - 1] = b;
        return m;
    }
    void startColumn()
    {
        while (!m_done) {
            if (m_a > m_maxA || !m_allowed(at(m_a, 0))) {
                m_done = true;
                return;
            }
            int cap = m_hiB;
            while (cap > 0 && !m_allowed(at(m_a, cap)))
                --cap;
            m_line.reset(cap, m_hiKnown && cap == m_hiB);
            if (!m_line.done())
                return;
            finishColumn();
        }
    }
    void finishColumn()
    {
        if (m_line.result()) {
            m_hiB = *m_line.result();
            m_hiKnown = true; // one more of the other shape cannot need more of this one
            if (m_hiB == 0)
                m_done = true; // every further column is dominated by this mix
        } else {
            m_hiB = m_line.hi();
            m_hiKnown = false;
        }
        ++m_a;
    }

    Mix m_mix;
    int m_maxA;
    int m_a = 0;
    int m_hiB;
    bool m_hiKnown = false;
    bool m_done = false;
    LineSearch m_line;
    std::function<bool(const Mix&)> m_allowed;
};

/// The seed that missed most often in `evaluations` (the first of the study's order on a tie):
/// where a slice of a load level starts, from that level's bisections, which every shard shares.
std::optional<uint64_t> seedMissedMost(
    const std::vector<Evaluation>& evaluations, const std::vector<ServiceLevel>& levels)
{
    std::vector<std::pair<uint64_t, int>> misses; // in order of first appearance
    for (const auto& e : evaluations)
        if (auto seed = e.missingSeed(levels)) {
            auto it
                = std::find_if(misses.begin(), misses.end(), [&](const auto& m) { return m.first == *seed; });
            if (it == misses.end())
                misses.emplace_back(*seed, 1);
            else
                ++it->second;
        }
    std::optional<uint64_t> most;
    int count = 0;
    for (const auto& [seed, n] : misses)
        if (n > count) {
            most = seed;
            count = n;
        }
    return most;
}

struct Recorder
{
    std::vector<std::set<std::string>> keys;
    SearchResult* result;
    void add(size_t load, const Evaluation& e)
    {
        if (keys[load].insert(mixKey(e.mix)).second) {
            result->byLoad[load].push_back(e);
            result->probes++;
        }
    }
};

/// Advances every unit in lockstep until all are finished: each round asks every unit for its
/// next mix, decides what can be inferred, evaluates the rest as one batch.
bool drive(std::vector<std::unique_ptr<Unit>>& units, const SearchSpace& space, Oracle& oracle,
    Diagnostics& diags, Recorder& recorder, SearchProgress& progress,
    const std::function<void(const SearchProgress&)>& onRound)
{
    for (;;) {
        std::vector<Probe> batch;
        std::vector<Unit*> owners;
        int64_t left = 0;
        for (auto& u : units) {
            for (auto m = u->next(); m; m = u->next()) {
                if (auto inferred = u->infer(*m)) {
                    u->feed(*inferred);
                    continue;
                }
                batch.push_back(Probe { *m, space.loads[u->load], u->firstSeed });
                owners.push_back(u.get());
                break;
            }
            left += u->remaining();
        }
        progress.probesEstimated = progress.probesDone + left;
        if (onRound)
            onRound(progress);
        if (batch.empty())
            return true;
        std::vector<Evaluation> answers;
        if (!oracle.evaluate(batch, answers, diags))
            return false;
        for (size_t i = 0; i < batch.size(); ++i) {
            const bool feasible = answers[i].feasible(space.levels);
            recorder.add(owners[i]->load, answers[i]);
            owners[i]->learn(batch[i].mix, feasible);
            if (!feasible)
                owners[i]->firstSeed = answers[i].missingSeed(space.levels);
            owners[i]->feed(feasible);
        }
        progress.probesDone += int64_t(batch.size());
    }
}

} // namespace

bool runSearch(const SearchSpace& space, Oracle& oracle, const Shard& shard, Diagnostics& diags,
    SearchResult& result, const std::function<void(const SearchProgress&)>& onRound, Oracle* bisectionAnswers)
{
    const size_t shapes = space.maxNodes.size();
    const size_t loads = space.loads.size();
    result = SearchResult {};
    result.byLoad.resize(loads);
    Recorder recorder { std::vector<std::set<std::string>>(loads), &result };
    SearchProgress progress;

    // 1. Each shape alone, up to the most nodes the constraints allow. The bisections of one load
    // level share what they learn: a mix one of them decided is decided for all.
    std::vector<Knowledge> levelKnowledge(loads);
    std::vector<std::unique_ptr<Unit>> bisections;
    std::vector<const ShapeBisection*> shapeBisections;
    for (size_t l = 0; l < loads; ++l) {
        for (size_t s = 0; s < shapes; ++s) {
            int cap = space.maxNodes[s];
            Mix m(shapes, 0);
            for (m[s] = cap; cap > 0 && !space.withinConstraints(m); m[s] = --cap) { }
            auto unit = std::make_unique<ShapeBisection>(l, &levelKnowledge[l], s, shapes, cap);
            shapeBisections.push_back(unit.get());
            bisections.push_back(std::move(unit));
        }
        // With hardware owned, the owned cluster alone, in the same round as the bisections' first
        // probes (so it costs no round of its own): when it meets every level, every later probe
        // is above it and decided, and the search ends after one round.
        const Mix nothingBought(shapes, 0);
        if (space.owned && space.withinConstraints(nothingBought))
            bisections.push_back(std::make_unique<SingleProbe>(l, &levelKnowledge[l], nothingBought));
    }
    if (!drive(bisections, space, bisectionAnswers ? *bisectionAnswers : oracle, diags, recorder, progress,
            onRound))
        return false;
    if (shapes < 2 || shard.bisectionsOnly)
        return true;

    // 2. Mixes, slice by slice, bounded by the cheapest single shape that met every level.
    progress.phase = 2;
    std::vector<Knowledge> shared(loads);
    std::vector<std::vector<int>> upper(loads, std::vector<int>(shapes, 0));
    std::vector<double> bound(loads, std::numeric_limits<double>::infinity());
    for (const ShapeBisection* b : shapeBisections) {
        upper[b->load][b->shape] = b->line.result().value_or(b->cap);
        if (b->line.result()) {
            Mix m(shapes, 0);
            m[b->shape] = *b->line.result();
            bound[b->load] = std::min(bound[b->load], space.cost(m));
        }
    }
    std::vector<std::optional<uint64_t>> startSeed(loads);
    for (size_t l = 0; l < loads; ++l) {
        for (const auto& e : result.byLoad[l])
            shared[l].add(e.mix, e.feasible(space.levels));
        startSeed[l] = seedMissedMost(result.byLoad[l], space.levels);
    }

    std::vector<std::unique_ptr<Unit>> slices;
    int64_t sliceIndex = 0;
    for (size_t l = 0; l < loads; ++l) {
        const double limit = bound[l];
        auto allowed
            = [&space, limit](const Mix& m) { return space.withinConstraints(m) && space.cost(m) <= limit; };
        // Prefixes over the shapes before the last two, in lexicographic order.
        const size_t prefixDims = shapes - 2;
        Mix prefix(shapes, 0);
        for (;;) {
            if (allowed(prefix)) {
                if (sliceIndex % shard.count == shard.index) {
                    slices.push_back(std::make_unique<SliceWalk>(
                        l, &shared[l], prefix, upper[l][shapes - 2], upper[l][shapes - 1], allowed));
                    slices.back()->firstSeed = startSeed[l];
                }
                ++sliceIndex;
            }
            size_t d = prefixDims;
            while (d > 0) {
                --d;
                if (prefix[d] < upper[l][d]) {
                    prefix[d]++;
                    break;
                }
                prefix[d] = 0;
                if (d == 0) {
                    d = SIZE_MAX;
                    break;
                }
            }
            if (prefixDims == 0 || d == SIZE_MAX)
                break;
        }
    }
    return drive(slices, space, oracle, diags, recorder, progress, onRound);
}

} // namespace drasim::planner
