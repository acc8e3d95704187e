// SPDX-License-Identifier: Apache-2.0
// Why a study recommends its mix: the frontier with the mixes that miss a level, the
// recommendation's neighbours with each level they miss and by how much, and the binding level.
#include <sstream>

#include <gtest/gtest.h>

#include "core/planner/recommendation_reasons.h"
#include "core/planner/study_result.h"

// A namespace of its own: a unity build puts this file beside other planner tests.
namespace recommendation_reasons_test {

using namespace drasim::planner;

ServiceLevel level(Metric metric, double limit)
{
    ServiceLevel l;
    l.metric = metric;
    l.limit = limit;
    return l;
}

/// One mix of `nodes` h100 nodes at $100,000 each, with per seed (pending, p95 wait, never
/// scheduled); `stopped`: seed 1's run stopped early on the pending level.
MixResult mix(const StudyResult& r, int nodes, std::vector<std::vector<double>> seeds, bool stopped = false)
{
    MixResult m;
    m.mix = { nodes };
    m.footprint = footprint(m.mix, r.candidates, r.cost, r.durationHours);
    m.withinConstraints = true;
    uint64_t seed = 1;
    for (auto& values : seeds) {
        SeedOutcome s;
        s.seed = seed++;
        s.values = values;
        s.stoppedEarly = stopped && s.seed == 1;
        s.stoppedAtSeconds = s.stoppedEarly ? 29570 : -1;
        m.seeds.push_back(s);
    }
    m.feasible = true;
    for (size_t i = 0; i < r.levels.size(); ++i) {
        Spread sp;
        sp.min = sp.max = sp.mean = m.seeds[0].values[i];
        for (const auto& s : m.seeds) {
            sp.min = std::min(sp.min, s.values[i]);
            sp.max = std::max(sp.max, s.values[i]);
            m.feasible = m.feasible && !s.stoppedEarly && r.levels[i].met(s.values[i]);
            sp.known = sp.known && !s.stoppedEarly;
        }
        m.spread.push_back(sp);
    }
    return m;
}

/// Six mixes by cost: $100k stopped early, $200k and $300k miss the wait, $400k
/// recommended, $500k with the best pending but too many pods never scheduled, $600k meets all.
StudyResult study()
{
    StudyResult r;
    r.candidates = { { "h100", "dgx-h100", 8, 100000, 0, 10200, 8, {} } };
    r.levels
        = { level(Metric::Pending, 3600), level(Metric::Wait, 600), level(Metric::NeverScheduled, 0.01) };
    LoadResult lr;
    lr.mixes.push_back(mix(r, 1, { { 3700, 100, 0 }, { 3000, 100, 0 } }, true));
    lr.mixes.push_back(mix(r, 2, { { 1800, 700, 0 }, { 1700, 900, 0 } }));
    lr.mixes.push_back(mix(r, 3, { { 2400, 500, 0 }, { 2000, 650, 0 } }));
    lr.mixes.push_back(mix(r, 4, { { 1200, 500, 0 }, { 1100, 400, 0 } }));
    lr.mixes.push_back(mix(r, 5, { { 0, 0, 0.02 }, { 0, 0, 0.005 } }));
    lr.mixes.push_back(mix(r, 6, { { 0, 0, 0 }, { 0, 0, 0 } }));
    lr.recommended = 3;
    lr.frontier = { 3, 5 };
    r.loads = { lr };
    return r;
}

TEST(RecommendationReasons, TheFrontierTakesTheMixesThatMissALevelWhereNoCheaperMixBeatsThem)
{
    const StudyResult r = study();
    const LoadReasons reasons = loadReasons(r, 0);
    // $300k is pending longer than $200k; every other mix beats all cheaper ones on the main level
    // (the stopped $100k is the cheapest of all).
    EXPECT_EQ(reasons.frontier, (std::vector<size_t> { 0, 1, 3, 4, 5 }));
}

TEST(RecommendationReasons, ShortfallsSayTheWorstSeedAndByHowMuch)
{
    const StudyResult r = study();
    const auto& mixes = r.loads[0].mixes;
    const auto wait = shortfalls(mixes[1], r.levels);
    ASSERT_EQ(wait.size(), 1u);
    EXPECT_EQ(wait[0].level, 1u);
    EXPECT_EQ(wait[0].seed, 2u);
    EXPECT_DOUBLE_EQ(wait[0].by, 300);
    EXPECT_EQ(shortfallText(wait[0], r.levels), "p95 wait <= 10m by 5m (15m on seed 2)");
    EXPECT_EQ(missesText(mixes[4], r.levels), "never scheduled <= 1% by 1.00 points (2.00% on seed 1)");
    // A run stopped early tells only that its level was missed.
    const auto stopped = shortfalls(mixes[0], r.levels);
    ASSERT_EQ(stopped.size(), 1u);
    EXPECT_FALSE(stopped[0].known);
    EXPECT_EQ(
        shortfallText(stopped[0], r.levels), "longest pending <= 1h (seed 1: > 1h, run stopped at 8h12m50s)");
    EXPECT_TRUE(shortfalls(mixes[3], r.levels).empty());
    EXPECT_EQ(missesText(mixes[3], r.levels), "meets every level");
}

TEST(RecommendationReasons, NeighboursAndTheBindingLevelInWords)
{
    const StudyResult r = study();
    const LoadReasons reasons = loadReasons(r, 0);
    ASSERT_TRUE(reasons.binding);
    EXPECT_EQ(*reasons.binding, 1u); // the wait: missed by the $200k and $300k mixes, pending by one
    EXPECT_EQ(reasons.compared, 3u);
    EXPECT_EQ(reasons.missingBinding, 2u);
    ASSERT_EQ(reasons.neighbours.size(), 3u);
    EXPECT_EQ(reasons.neighbours[0].kind, Neighbour::Kind::CheaperOnFrontier);
    EXPECT_EQ(reasons.neighbours[0].mix, 1u);
    EXPECT_EQ(reasons.neighbours[1].kind, Neighbour::Kind::NextCheaper);
    EXPECT_EQ(reasons.neighbours[1].mix, 2u);
    EXPECT_EQ(reasons.neighbours[2].kind, Neighbour::Kind::DearerOnFrontier);
    EXPECT_EQ(reasons.neighbours[2].mix, 4u);
    const auto lines = reasonLines(r, 0, reasons);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0], "binding service level: p95 wait <= 10m (missed by 2 of the 3 cheaper mixes)");
    EXPECT_EQ(lines[1],
        "cheaper on the frontier: h100=2 ($200,000, $200,000 less) misses p95 wait <= 10m by 5m (15m on seed "
        "2)");
    EXPECT_EQ(lines[2],
        "next cheaper: h100=3 ($300,000, $100,000 less) misses p95 wait <= 10m by 50s (10m50s on seed 2)");
    EXPECT_EQ(lines[3],
        "dearer on the frontier: h100=5 ($500,000, $100,000 more) misses never scheduled <= 1% by 1.00 "
        "points "
        "(2.00% on seed 1)");
}

std::vector<std::string> csvLines(const std::string& csv)
{
    std::vector<std::string> lines;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

TEST(RecommendationReasons, TheFrontierCsvListsTheMixesThatMissALevelAndWhich)
{
    const StudyResult r = study();
    const auto lines = csvLines(frontierCsv(r));
    ASSERT_EQ(lines.size(), 6u); // the header, then the five frontier mixes by cost
    EXPECT_TRUE(endsWith(lines[0], "_max,misses")) << lines[0];
    // The stopped run: its main level unknown (no numbers), the level that stopped it named.
    EXPECT_TRUE(endsWith(lines[1], ",,," + r.levels[0].column())) << lines[1];
    EXPECT_TRUE(endsWith(lines[2], "," + r.levels[1].column())) << lines[2];
    EXPECT_EQ(lines[3].rfind("1,true,4,", 0), 0u) << lines[3];
    EXPECT_TRUE(endsWith(lines[3], ",1200,")) << lines[3]; // meets every level: nothing missed
    EXPECT_TRUE(endsWith(lines[4], ",0," + r.levels[2].column())) << lines[4];
    EXPECT_TRUE(endsWith(lines[5], ",0,")) << lines[5];
}

TEST(RecommendationReasons, TheReasonsForProgramsSayTheSame)
{
    const StudyResult r = study();
    const auto d = reasonsData(r, 0, loadReasons(r, 0));
    ASSERT_TRUE(d.isMap());
    const auto* binding = d.find("binding");
    ASSERT_TRUE(binding && binding->isMap());
    EXPECT_EQ(binding->find("level")->asString(), r.levels[1].column());
    EXPECT_EQ(binding->find("missedBy")->asInt(), 2);
    EXPECT_EQ(d.find("compared")->asInt(), 3);
    const auto& frontier = d.find("frontier")->asList();
    ASSERT_EQ(frontier.size(), 5u);
    EXPECT_FALSE(frontier[0].find("feasible")->asBool());
    EXPECT_EQ(
        frontier[0].find("misses")->asList()[0].find("stopped")->asString(), "> 1h, run stopped at 8h12m50s");
    EXPECT_TRUE(frontier[2].find("feasible")->asBool());
    EXPECT_TRUE(frontier[2].find("misses")->asList().empty());
    const auto& neighbours = d.find("neighbours")->asList();
    ASSERT_EQ(neighbours.size(), 3u);
    EXPECT_EQ(neighbours[2].find("kind")->asString(), "dearerOnFrontier");
    EXPECT_DOUBLE_EQ(neighbours[2].find("costDifferenceUSD")->asDouble(), 100000);
    const auto& miss = neighbours[2].find("misses")->asList()[0];
    EXPECT_EQ(miss.find("level")->asString(), r.levels[2].column());
    EXPECT_EQ(miss.find("seed")->asInt(), 1);
    EXPECT_DOUBLE_EQ(miss.find("by")->asDouble(), 0.01);
    EXPECT_EQ(d.find("lines")->asList().size(), 4u);
    // No such load: nothing to say.
    EXPECT_TRUE(reasonsData(r, 7, LoadReasons {}).asMap().empty());
}

TEST(RecommendationReasons, EachFrontierLineSaysWhatItDrawsAndTheRecommendedOneIsNamed)
{
    StudyResult r = study();
    r.study = "tiny";
    r.loads[0].load = 1.0;
    const std::string text = formatText(r);
    std::istringstream in(text);
    std::vector<std::string> frontier;
    bool inFrontier = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("  frontier (", 0) == 0) {
            inFrontier = true;
            continue;
        }
        if (inFrontier && line.rfind("    $", 0) != 0)
            break;
        if (inFrontier)
            frontier.push_back(line);
    }
    ASSERT_EQ(frontier.size(), 5u) << text;
    int recommended = 0;
    for (const std::string& line : frontier)
        recommended += endsWith(line, "  <- recommended") ? 1 : 0;
    EXPECT_EQ(recommended, 1) << text;
    // 4 nodes of 10.2 kW and 8 rack slots each; the recommendation, meeting every level.
    EXPECT_EQ(frontier[2], "    $400,000  h100=4  (40.8 kW, 32 rack slots)  20m  <- recommended") << text;
    // A cheaper one that misses a level says so after what it draws.
    EXPECT_EQ(frontier[1],
        "    $200,000  h100=2  (20.4 kW, 16 rack slots)  30m  misses p95 wait <= 10m by 5m (15m on seed 2)");
}

} // namespace recommendation_reasons_test
