// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/compare/compare_format.h"

using namespace drasim;
using namespace drasim::compare;

namespace {

Comparison small()
{
    Comparison c;
    c.runs = { { 3, "default", 1, 42, "base", "finished" }, { 8, "default, more", 2, 42, "", "finished" } };
    const std::vector<Bound> exact(2, Bound::Exact);
    c.kpis = {
        { "pods", "pods.peakPending", "pods", Better::Lower, { 30.0, 4.0 }, { std::nullopt, -26.0 }, exact,
            exact },
        { "wait", "wait.p95/training", "s", Better::Lower, { 1800.25, std::nullopt },
            { std::nullopt, std::nullopt }, exact, exact },
        { "cost", "cost.total", "USD", Better::Lower, { 1000.0, 1000.001 }, { std::nullopt, 0.001 }, exact,
            exact },
    };
    c.series = { { "pods.pending", { 0, 300 }, { { 3.0, 1.0 }, { 5.0, std::nullopt } } } };
    return c;
}

} // namespace

TEST(CompareFormat, TextTableAlignsColumnsAndSignsDifferences)
{
    EXPECT_EQ(formatText(small()),
        "run  scenario       revision  seed  status    label\n"
        "#3   default        1         42    finished  base\n"
        "#8   default, more  2         42    finished\n"
        "\n"
        "kpi                unit       #3       #8  #8-#3\n"
        "pods.peakPending   pods       30        4    -26\n"
        "wait.p95/training  s      1800.2        -      -\n"
        "cost.total         USD   1000.00  1000.00   0.00\n"
        "\n"
        "series: 1 metrics on one time axis of up to 2 samples (-o json or --series FILE for the values)\n");
}

TEST(CompareFormat, CsvQuotesFieldsAndLeavesMissingCellsEmpty)
{
    EXPECT_EQ(kpiCsv(small()),
        "kpi,group,unit,better,run_3,run_8,delta_8\n"
        "pods.peakPending,pods,pods,lower,30,4,-26\n"
        "wait.p95/training,wait,s,lower,1800.25,,\n"
        "cost.total,cost,USD,lower,1000.00,1000.00,0.00\n");
    EXPECT_EQ(seriesCsv(small()), "metric,time_s,run_3,run_8\npods.pending,0,3,5\npods.pending,300,1,\n");
}

TEST(CompareFormat, MoneyInCsvHasCents)
{
    Comparison c = small();
    c.kpis = { { "cost", "cost.total", "USD", Better::Lower, { 740740.6799999999, 0.1 + 0.2 },
        { std::nullopt, 0.1 + 0.2 - 740740.6799999999 }, {}, {} } };
    c.series = { { "cost.usd", { 0, 300 }, { { 0.0, 12.345000000000001 }, { std::nullopt, 1e6 / 3 } } } };
    EXPECT_EQ(kpiCsv(c),
        "kpi,group,unit,better,run_3,run_8,delta_8\n"
        "cost.total,cost,USD,lower,740740.68,0.30,-740740.38\n");
    EXPECT_EQ(seriesCsv(c), "metric,time_s,run_3,run_8\ncost.usd,0,0.00,\ncost.usd,300,12.35,333333.33\n");
}

TEST(CompareFormat, JsonHasNullsWhereARunHasNoValue)
{
    EXPECT_EQ(toJson(toData(small()), 0),
        R"({"runs":[{"id":3,"scenario":"default","revision":1,"seed":42,"status":"finished","label":"base"},)"
        R"({"id":8,"scenario":"default, more","revision":2,"seed":42,"status":"finished","label":""}],)"
        R"("kpis":[{"name":"pods.peakPending","group":"pods","unit":"pods","better":"lower","values":[30,4],"deltas":[null,-26]},)"
        R"({"name":"wait.p95/training","group":"wait","unit":"s","better":"lower","values":[1800.25,null],"deltas":[null,null]},)"
        R"({"name":"cost.total","group":"cost","unit":"USD","better":"lower","values":[1000,1000.001],"deltas":[null,0.001]}],)"
        R"("series":[{"metric":"pods.pending","times":[0,300],"values":[[3,1],[5,null]]}]})"
        "\n");
}

TEST(CompareFormat, BoundsAreMarkedInTextCsvAndJson)
{
    Comparison c;
    c.runs = { { 3, "default", 1, 42, "", "finished" }, { 8, "default", 1, 7, "", "finished" } };
    c.kpis = { { "wait", "wait.p95", "s", Better::Lower, { 600.0, 300.0 }, { std::nullopt, -300.0 },
        { Bound::Exact, Bound::AtLeast }, { Bound::Exact, Bound::AtLeast } } };
    EXPECT_EQ(formatText(c),
        "run  scenario  revision  seed  status    label\n"
        "#3   default   1         42    finished\n"
        "#8   default   1         7     finished\n"
        "\n"
        "kpi       unit     #3       #8     #8-#3\n"
        "wait.p95  s     600.0  >=300.0  >=-300.0\n"
        "\n"
        "series: 0 metrics on one time axis of up to 0 samples (-o json or --series FILE for the values)\n");
    EXPECT_EQ(
        kpiCsv(c), "kpi,group,unit,better,run_3,run_8,delta_8\nwait.p95,wait,s,lower,600,>=300,>=-300\n");
    EXPECT_NE(toJson(toData(c), 0)
                  .find(R"("values":[600,300],"deltas":[null,-300],"valueBounds":["=",">="],)"
                        R"("deltaBounds":["=",">="]})"),
        std::string::npos);
}

TEST(CompareFormat, PreemptionsAreWholeAndLostWorkHasHundredths)
{
    Comparison c = small();
    const std::vector<Bound> exact(2, Bound::Exact);
    c.kpis = { { "preemption", "preemption.preemptions", "preemptions", Better::Neither, { 177.0, 0.0 },
                   { std::nullopt, -177.0 }, exact, exact },
        { "preemption", "preemption.lostDeviceHours", "device-h", Better::Lower, { 29.0681, 0.0 },
            { std::nullopt, -29.0681 }, exact, exact } };
    const std::string text = formatText(c);
    EXPECT_NE(text.find("preemption.preemptions      preemptions    177     0    -177\n"), std::string::npos)
        << text;
    EXPECT_NE(text.find("preemption.lostDeviceHours  device-h     29.07  0.00  -29.07\n"), std::string::npos)
        << text;
}
