// SPDX-License-Identifier: Apache-2.0
// Laws of the capacity search over random monotone service levels (no simulator: an oracle that
// answers from hidden thresholds), where brute force over every mix is the oracle of truth.
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "core/planner/search.h"
#include "core/planner/study_result.h"

using namespace drasim;
using namespace drasim::planner;

namespace {

/// Feasible on a seed when the mix is at or above one of that seed's generators (an up-set, so
/// monotone in every count); the main value shrinks with more nodes.
class ThresholdOracle : public Oracle
{
public:
    ThresholdOracle(std::vector<std::vector<Mix>> generators, std::vector<uint64_t> seeds)
        : m_generators(std::move(generators))
        , m_seeds(std::move(seeds))
    { }

    bool feasibleOn(size_t seed, const Mix& m, double load) const
    {
        for (Mix g : m_generators[seed]) {
            bool above = true;
            for (size_t i = 0; i < m.size(); ++i)
                above = above && m[i] >= int(g[i] * load + 0.5); // more load needs more nodes
            if (above)
                return true;
        }
        return false;
    }

    bool evaluate(const std::vector<Probe>& probes, std::vector<Evaluation>& out, Diagnostics&) override
    {
        out.clear();
        batches++;
        for (const auto& p : probes) {
            Evaluation e;
            e.mix = p.mix;
            e.load = p.load;
            int nodes = 0;
            for (int n : p.mix)
                nodes += n;
            firstSeeds.push_back(p.firstSeed);
            // Deciding at the first miss: p.firstSeed, then the others in order, until one misses.
            std::vector<size_t> order;
            for (size_t s = 0; s < m_seeds.size(); ++s)
                if (p.firstSeed == m_seeds[s])
                    order.push_back(s);
            for (size_t s = 0; s < m_seeds.size(); ++s)
                if (p.firstSeed != m_seeds[s])
                    order.push_back(s);
            std::vector<bool> ran(m_seeds.size(), false);
            for (size_t s : order) {
                ran[s] = true;
                if (decideAtFirstMiss && !feasibleOn(s, p.mix, p.load))
                    break;
            }
            for (size_t s = 0; s < m_seeds.size(); ++s) {
                if (!ran[s])
                    continue;
                SeedOutcome o;
                o.seed = m_seeds[s];
                o.values = { feasibleOn(s, p.mix, p.load) ? 600.0 / (1 + nodes + int(s)) : 3600.0 };
                e.seeds.push_back(o);
            }
            calls++;
            out.push_back(std::move(e));
        }
        return true;
    }

    int64_t calls = 0;
    int64_t batches = 0; ///< rounds of the search
    bool decideAtFirstMiss = false;
    std::vector<std::optional<uint64_t>> firstSeeds; ///< each probe's, in the order asked

private:
    std::vector<std::vector<Mix>> m_generators;
    std::vector<uint64_t> m_seeds;
};

struct Case
{
    SearchSpace space;
    std::vector<PricedCandidate> candidates;
    Constraints constraints;
    std::unique_ptr<ThresholdOracle> oracle;
};

Case randomCase(std::mt19937& rng)
{
    Case c;
    const size_t shapes = 1 + rng() % 4;
    const size_t seeds = 1 + rng() % 3;
    for (size_t i = 0; i < shapes; ++i) {
        PricedCandidate p;
        p.name = "s" + std::to_string(i);
        p.maxNodes = 1 + int(rng() % 9);
        p.purchaseUsd = double(1 + rng() % 7) * 1000;
        p.powerWatts = double(1 + rng() % 5) * 100;
        c.candidates.push_back(p);
        c.space.maxNodes.push_back(p.maxNodes);
    }
    std::vector<std::vector<Mix>> gens(seeds);
    for (auto& g : gens)
        for (size_t k = 0, n = 1 + rng() % 4; k < n; ++k) {
            Mix m(shapes);
            for (size_t i = 0; i < shapes; ++i)
                m[i] = int(rng() % (c.candidates[i].maxNodes + 2)); // sometimes out of reach
            g.push_back(m);
        }
    std::vector<uint64_t> seedList;
    for (size_t s = 0; s < seeds; ++s)
        seedList.push_back(s + 1);
    if (rng() % 4 == 0) // the mix of zeros meets the levels: as if the hardware owned sufficed
        for (auto& g : gens)
            g.push_back(Mix(shapes, 0));
    c.oracle = std::make_unique<ThresholdOracle>(gens, seedList);
    if (rng() % 3 == 0)
        c.constraints.powerWatts = double(rng() % 3000);
    c.space.loads = { 1.0, 1.5 };
    c.space.levels.resize(1);
    c.space.levels[0].metric = Metric::Wait;
    c.space.levels[0].limit = 600;
    const auto cands = c.candidates;
    const Constraints limits = c.constraints;
    c.space.cost = [cands](const Mix& m) { return footprint(m, cands, CostBasis::Purchase, 0).costUsd; };
    c.space.withinConstraints = [cands, limits](const Mix& m) {
        return withinConstraints(footprint(m, cands, CostBasis::Purchase, 0), limits);
    };
    return c;
}

/// The same study with an oracle of its own (the same hidden thresholds), before either is asked.
Case sameStudy(const Case& c)
{
    return Case { c.space, c.candidates, c.constraints, std::make_unique<ThresholdOracle>(*c.oracle) };
}

/// Both studies searched, each by its own oracle: the two sides of a law that compares them.
void searchBoth(const Case& x, const Case& y, SearchResult& a, SearchResult& b)
{
    Diagnostics diags;
    ASSERT_TRUE(runSearch(x.space, *x.oracle, Shard {}, diags, a)) << diags.formatAll();
    ASSERT_TRUE(runSearch(y.space, *y.oracle, Shard {}, diags, b)) << diags.formatAll();
}

StudyResult header(const Case& c)
{
    StudyResult h;
    h.study = "law";
    h.candidates = c.candidates;
    h.levels = c.space.levels;
    for (uint64_t s = 1; s <= 3; ++s)
        h.seeds.push_back(s);
    return h;
}

/// The cheapest cost of a mix within maxNodes and the constraints that is feasible on every seed.
std::optional<double> bruteForce(const Case& c, double load, size_t seeds)
{
    const size_t shapes = c.candidates.size();
    std::optional<double> best;
    Mix m(shapes, 0);
    for (;;) {
        bool ok = c.space.withinConstraints(m);
        for (size_t s = 0; ok && s < seeds; ++s)
            ok = c.oracle->feasibleOn(s, m, load);
        if (ok && (!best || c.space.cost(m) < *best))
            best = c.space.cost(m);
        size_t d = 0;
        while (d < shapes && m[d] == c.candidates[d].maxNodes)
            m[d++] = 0;
        if (d == shapes)
            return best;
        m[d]++;
    }
}

/// The search answered from `known` alone (the evaluations the shards recorded), summarised as
/// JSON into `json`: what a merge of those shards prints. False when the search fails.
bool replay(const Case& c, const std::vector<Evaluation>& known, const StudyResult& h, Diagnostics& diags,
    std::string& json)
{
    CacheOracle cache(known);
    SearchResult replayed;
    if (!runSearch(c.space, cache, Shard {}, diags, replayed))
        return false;
    json = toJson(toData(summarize(replayed, c.space.loads, c.constraints, h)));
    return true;
}

} // namespace

TEST(PlannerSearch, RecommendsTheCheapestMixThatMeetsEveryLevelOnEverySeed)
{
    std::mt19937 rng(20261202);
    for (int round = 0; round < 300; ++round) {
        Case c = randomCase(rng);
        SearchResult result;
        Diagnostics diags;
        ASSERT_TRUE(runSearch(c.space, *c.oracle, Shard {}, diags, result));
        size_t seeds = 0;
        if (!result.byLoad[0].empty())
            seeds = result.byLoad[0][0].seeds.size();
        StudyResult h = header(c);
        h.seeds.resize(seeds);
        StudyResult r = summarize(result, c.space.loads, c.constraints, h);
        for (size_t l = 0; l < r.loads.size(); ++l) {
            auto expected = bruteForce(c, c.space.loads[l], seeds);
            const LoadResult& lr = r.loads[l];
            ASSERT_EQ(expected.has_value(), lr.recommended.has_value()) << "round " << round << " load " << l;
            if (expected) {
                const MixResult& rec = lr.mixes[*lr.recommended];
                EXPECT_EQ(*expected, rec.footprint.costUsd) << "round " << round;
                EXPECT_TRUE(rec.feasible);
                EXPECT_TRUE(rec.withinConstraints);
                EXPECT_EQ(rec.seeds.size(), seeds); // every seed ran
            }
            // The frontier gets strictly better as it gets dearer, and only holds feasible mixes.
            for (size_t i = 1; i < lr.frontier.size(); ++i) {
                const MixResult& a = lr.mixes[lr.frontier[i - 1]];
                const MixResult& b = lr.mixes[lr.frontier[i]];
                EXPECT_LE(a.footprint.costUsd, b.footprint.costUsd);
                EXPECT_LT(b.worstMain(r.levels[0]), a.worstMain(r.levels[0]));
            }
            for (size_t i : lr.frontier)
                EXPECT_TRUE(lr.mixes[i].feasible && lr.mixes[i].withinConstraints);
        }
    }
}

TEST(PlannerSearch, DecidingAMixAtItsFirstMissChangesNoVerdictAndNoRecommendation)
{
    std::mt19937 rng(20261207);
    int shortened = 0;
    for (int round = 0; round < 300; ++round) {
        Case every = randomCase(rng);
        Case early = sameStudy(every);
        early.oracle->decideAtFirstMiss = true;
        SearchResult a, b;
        ASSERT_NO_FATAL_FAILURE(searchBoth(every, early, a, b));
        ASSERT_EQ(a.byLoad.size(), b.byLoad.size());
        for (size_t l = 0; l < a.byLoad.size(); ++l) {
            ASSERT_EQ(a.byLoad[l].size(), b.byLoad[l].size()) << "round " << round;
            for (size_t i = 0; i < a.byLoad[l].size(); ++i) {
                const Evaluation& x = a.byLoad[l][i];
                const Evaluation& y = b.byLoad[l][i];
                EXPECT_EQ(probeKey(x.mix, x.load), probeKey(y.mix, y.load)) << "round " << round;
                EXPECT_EQ(x.feasible(every.space.levels), y.feasible(every.space.levels))
                    << "round " << round;
                shortened += y.seeds.size() < x.seeds.size() ? 1 : 0;
            }
        }
        StudyResult h = header(every);
        h.seeds = { 1, 2, 3 };
        const StudyResult ra = summarize(a, every.space.loads, every.constraints, h);
        const StudyResult rb = summarize(b, every.space.loads, every.constraints, h);
        for (size_t l = 0; l < ra.loads.size(); ++l) {
            ASSERT_EQ(ra.loads[l].recommended.has_value(), rb.loads[l].recommended.has_value());
            if (ra.loads[l].recommended) {
                EXPECT_EQ(mixKey(ra.loads[l].mixes[*ra.loads[l].recommended].mix),
                    mixKey(rb.loads[l].mixes[*rb.loads[l].recommended].mix))
                    << "round " << round;
            }
        }
    }
    EXPECT_GT(shortened, 100); // the law saw many mixes decided before their last seed
}

TEST(PlannerSearch, AfterAMissTheUnitTriesThatSeedFirst)
{
    // One shape of up to 8 nodes, one load, seeds 1 to 3: seeds 1 and 2 need 2 nodes, seed 3
    // needs 5. The bisection probes 8 (all meet), then 3 (seeds 1 and 2 meet, 3 misses), then 5
    // with seed 3 first (meets, then 1 and 2), then 4 with seed 3 first (misses alone).
    Case c;
    PricedCandidate p;
    p.name = "s0";
    p.maxNodes = 8;
    p.purchaseUsd = 1000;
    c.candidates = { p };
    c.space.maxNodes = { 8 };
    c.space.loads = { 1.0 };
    c.space.levels.resize(1);
    c.space.levels[0].metric = Metric::Wait;
    c.space.levels[0].limit = 600;
    c.space.cost = [](const Mix& m) { return 1000.0 * m[0]; };
    c.space.withinConstraints = [](const Mix&) { return true; };
    ThresholdOracle oracle({ { Mix { 2 } }, { Mix { 2 } }, { Mix { 5 } } }, { 1, 2, 3 });
    oracle.decideAtFirstMiss = true;
    SearchResult result;
    Diagnostics diags;
    ASSERT_TRUE(runSearch(c.space, oracle, Shard {}, diags, result));
    const std::vector<std::optional<uint64_t>> firstSeeds { std::nullopt, std::nullopt, 3, 3 };
    EXPECT_EQ(oracle.firstSeeds, firstSeeds);
    std::vector<std::string> seen;
    for (const Evaluation& e : result.byLoad[0]) {
        std::string seeds;
        for (const SeedOutcome& s : e.seeds)
            seeds += std::to_string(s.seed);
        seen.push_back(mixKey(e.mix) + ":" + seeds);
    }
    EXPECT_EQ(seen, (std::vector<std::string> { "8:123", "3:123", "5:123", "4:3" }));
    ASSERT_EQ(result.byLoad[0][3].missingSeed(c.space.levels), std::optional<uint64_t>(3));
}

TEST(PlannerSearch, ShardsReplayedTogetherGiveTheSingleProcessResult)
{
    std::mt19937 rng(7);
    for (int round = 0; round < 60; ++round) {
        Case c = randomCase(rng);
        Diagnostics diags;
        SearchResult whole;
        ASSERT_TRUE(runSearch(c.space, *c.oracle, Shard {}, diags, whole));
        StudyResult h = header(c);
        const std::string expected = toJson(toData(summarize(whole, c.space.loads, c.constraints, h)));
        for (int n = 2; n <= 4; ++n) {
            std::vector<Evaluation> known;
            for (int k = 0; k < n; ++k) {
                SearchResult part;
                ASSERT_TRUE(runSearch(c.space, *c.oracle, Shard { k, n }, diags, part));
                for (const auto& load : part.byLoad)
                    known.insert(known.end(), load.begin(), load.end());
            }
            std::string replayed;
            ASSERT_TRUE(replay(c, known, h, diags, replayed)) << diags.formatAll();
            EXPECT_EQ(expected, replayed) << "round " << round << ", " << n << " shards";
        }
    }
}

TEST(PlannerSearch, ShardsReadingTheSharedBisectionsGiveTheSingleProcessResultAndRepeatNoProbe)
{
    std::mt19937 rng(2026120601);
    for (int round = 0; round < 60; ++round) {
        Case c = randomCase(rng);
        Diagnostics diags;
        SearchResult whole;
        ASSERT_TRUE(runSearch(c.space, *c.oracle, Shard {}, diags, whole));
        const int64_t wholeCalls = c.oracle->calls;
        StudyResult h = header(c);
        const std::string expected = toJson(toData(summarize(whole, c.space.loads, c.constraints, h)));
        for (int n = 1; n <= 4; ++n) {
            const int64_t callsBefore = c.oracle->calls;
            // The bisection stage, once; then every shard reads it.
            SearchResult stage;
            Shard bisect;
            bisect.bisectionsOnly = true;
            ASSERT_TRUE(runSearch(c.space, *c.oracle, bisect, diags, stage));
            std::vector<Evaluation> bisections;
            for (const auto& load : stage.byLoad)
                bisections.insert(bisections.end(), load.begin(), load.end());
            std::vector<Evaluation> known;
            for (int k = 0; k < n; ++k) {
                CacheOracle shared(bisections, "the bisections lack it");
                SearchResult part;
                ASSERT_TRUE(runSearch(c.space, *c.oracle, Shard { k, n }, diags, part, {}, &shared))
                    << diags.formatAll();
                for (const auto& load : part.byLoad)
                    known.insert(known.end(), load.begin(), load.end());
            }
            // The split asks the oracle what the single process asks, no more: the bisections once.
            EXPECT_EQ(c.oracle->calls - callsBefore, wholeCalls)
                << "round " << round << ", " << n << " shards";
            std::string replayed;
            ASSERT_TRUE(replay(c, known, h, diags, replayed)) << diags.formatAll();
            EXPECT_EQ(expected, replayed) << "round " << round << ", " << n << " shards";
        }
    }
}

TEST(PlannerSearch, AShardWhoseSharedBisectionsLackAProbeSaysSo)
{
    std::mt19937 rng(11);
    Case c = randomCase(rng);
    while (c.candidates.size() < 2)
        c = randomCase(rng);
    Diagnostics diags;
    CacheOracle none({}, "the bisections given lack it");
    SearchResult part;
    EXPECT_FALSE(runSearch(c.space, *c.oracle, Shard { 0, 2 }, diags, part, {}, &none));
    EXPECT_NE(diags.formatAll().find("no result for mix "), std::string::npos) << diags.formatAll();
    EXPECT_NE(diags.formatAll().find(": the bisections given lack it"), std::string::npos)
        << diags.formatAll();
}

TEST(PlannerSearch, PrunesMixesDearerThanTheBestSingleShape)
{
    // Two shapes: 1 node of the dear one suffices, the cheap one needs 3 (3 x 1000 < 5000).
    SearchSpace space;
    space.maxNodes = { 8, 8 };
    space.loads = { 1.0 };
    space.levels.resize(1);
    space.levels[0].limit = 600;
    std::vector<PricedCandidate> cands(2);
    cands[0].purchaseUsd = 1000;
    cands[1].purchaseUsd = 5000;
    space.cost = [cands](const Mix& m) { return footprint(m, cands, CostBasis::Purchase, 0).costUsd; };
    space.withinConstraints = [](const Mix&) { return true; };
    ThresholdOracle oracle({ { Mix { 3, 0 }, Mix { 0, 1 } } }, { 1 });
    SearchResult result;
    Diagnostics diags;
    ASSERT_TRUE(runSearch(space, oracle, Shard {}, diags, result));
    for (const auto& e : result.byLoad[0]) {
        if (e.mix[0] > 0 && e.mix[1] > 0) { // a real mix: never dearer than 3 cheap nodes
            EXPECT_LE(space.cost(e.mix), 3000) << mixKey(e.mix);
        }
    }
    // 4 bisection probes per shape at most (0..8), and few mixes.
    EXPECT_LE(oracle.calls, 14);
}

TEST(PlannerSearch, CacheOracleNamesTheMissingEvaluation)
{
    CacheOracle cache({});
    std::vector<Evaluation> out;
    Diagnostics diags;
    EXPECT_FALSE(cache.evaluate({ Probe { Mix { 2, 1 }, 1.25, std::nullopt } }, out, diags));
    EXPECT_NE(diags.formatAll().find("no result for mix 2,1 at load 1.25"), std::string::npos)
        << diags.formatAll();
}

TEST(PlannerSearch, AskingTheOwnedClusterFirstChangesNoRecommendationAndEndsTheSearchWhenItSuffices)
{
    std::mt19937 rng(20261208);
    int sufficed = 0;
    for (int round = 0; round < 300; ++round) {
        Case plain = randomCase(rng);
        Case owned = sameStudy(plain);
        owned.space.owned = true;
        SearchResult a, b;
        ASSERT_NO_FATAL_FAILURE(searchBoth(plain, owned, a, b));
        StudyResult h = header(plain);
        h.seeds = { 1, 2, 3 };
        const StudyResult ra = summarize(a, plain.space.loads, plain.constraints, h);
        const StudyResult rb = summarize(b, owned.space.loads, owned.constraints, h);
        bool zeroMeetsEveryLoad = true;
        for (size_t l = 0; l < ra.loads.size(); ++l) {
            ASSERT_EQ(ra.loads[l].recommended.has_value(), rb.loads[l].recommended.has_value())
                << "round " << round;
            if (ra.loads[l].recommended) {
                EXPECT_EQ(ra.loads[l].mixes[*ra.loads[l].recommended].footprint.costUsd,
                    rb.loads[l].mixes[*rb.loads[l].recommended].footprint.costUsd)
                    << "round " << round;
            }
            // The mix of zeros was asked, in the first round, whenever the constraints allow it.
            const Mix zero(plain.candidates.size(), 0);
            const bool allowed = plain.space.withinConstraints(zero);
            bool asked = false;
            for (const Evaluation& e : b.byLoad[l])
                if (e.mix == zero) {
                    asked = true;
                    zeroMeetsEveryLoad = zeroMeetsEveryLoad && e.feasible(owned.space.levels);
                }
            EXPECT_EQ(asked, allowed) << "round " << round;
            zeroMeetsEveryLoad = zeroMeetsEveryLoad && asked;
        }
        if (zeroMeetsEveryLoad) {
            ++sufficed;
            EXPECT_EQ(owned.oracle->batches, 1) << "round " << round; // nothing else needed simulating
            for (const LoadResult& lr : rb.loads)
                EXPECT_EQ(lr.mixes[*lr.recommended].footprint.costUsd, 0.0);
        }
    }
    EXPECT_GT(sufficed, 30); // the law saw many studies where the owned cluster was enough
}
