// SPDX-License-Identifier: Apache-2.0
// Container resources as the API server admits them: requests defaulted from limits on Pods (not on
// templates), and ValidateResourceRequirements' rules with their messages and positions.
#include <random>

#include <gtest/gtest.h>

#include "core/api/pod_defaults.h"
#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;

namespace {

std::string podWith(const std::string& resources, const std::string& kind = "containers")
{
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  " + kind
        + ":\n  - name: c\n    image: x\n    resources:\n" + resources
        + (kind == "containers" ? "" : "  containers: [{name: main, image: x}]\n");
}

Quantity q(const char* text)
{
    return *Quantity::parse(text);
}

std::vector<std::string> errors(const std::string& yaml)
{
    auto r = yamlio::loadText(yaml, "t.yaml");
    std::vector<std::string> out;
    for (const auto& d : r.diagnostics.all())
        if (d.severity == Severity::Error)
            out.push_back(d.format());
    return out;
}

TEST(PodResources, LimitsWithoutRequestsBecomeRequests)
{
    auto r = yamlio::loadText(podWith("      limits: {nvidia.com/gpu: 2, cpu: \"4\", memory: 8Gi}\n"
                                      "      requests: {cpu: \"1\"}\n"),
        "t.yaml");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    const auto& req = r.objects.pods.at(0).spec.containers.at(0).resources.requests;
    EXPECT_EQ(req.size(), 3u);
    EXPECT_EQ(req.at("nvidia.com/gpu"), q("2"));
    EXPECT_EQ(req.at("memory"), q("8Gi"));
    EXPECT_EQ(req.at("cpu"), q("1")) << "a request that is present is not replaced by its limit";
}

TEST(PodResources, InitContainersAreDefaultedToo)
{
    auto r = yamlio::loadText(podWith("      limits: {example.com/fpga: 1}\n", "initContainers"), "t.yaml");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    const auto& pod = r.objects.pods.at(0);
    EXPECT_EQ(pod.spec.initContainers.at(0).resources.requests.at("example.com/fpga"), q("1"));
    EXPECT_TRUE(pod.spec.containers.at(0).resources.requests.empty());
}

TEST(PodResources, TemplatesKeepTheirResourcesAsWritten)
{
    auto r = yamlio::loadText("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n"
                              "    spec:\n      containers:\n      - name: c\n        image: x\n"
                              "        resources: {limits: {nvidia.com/gpu: 1}}\n",
        "t.yaml");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    const auto& c = r.objects.controllers.at(0).podTemplate.spec.containers.at(0);
    EXPECT_TRUE(c.resources.requests.empty()) << "upstream defaults Pods, not PodTemplates";
    EXPECT_EQ(c.resources.limits.at("nvidia.com/gpu"), q("1"));
}

// Law over random containers: after defaulting, every limit has a request, requests that were
// there are unchanged, nothing else is added, and defaulting twice changes nothing.
TEST(PodResources, DefaultingLaws)
{
    const std::vector<std::string> names
        = { "cpu", "memory", "nvidia.com/gpu", "example.com/nic", "hugepages-2Mi" };
    std::mt19937 rng(7);
    for (int round = 0; round < 500; ++round) {
        api::PodSpec spec;
        spec.containers.resize(1 + rng() % 3);
        spec.initContainers.resize(rng() % 2);
        auto fill = [&](api::Container& c) {
            for (const auto& n : names) {
                if (rng() % 2)
                    c.resources.limits[n] = Quantity::fromInt(int64_t(rng() % 9));
                if (rng() % 3 == 0)
                    c.resources.requests[n] = Quantity::fromInt(int64_t(rng() % 9));
            }
        };
        for (auto& c : spec.containers)
            fill(c);
        for (auto& c : spec.initContainers)
            fill(c);
        const api::PodSpec before = spec;
        api::defaultRequestsFromLimits(spec);
        auto check = [&](const api::Container& was, const api::Container& now) {
            EXPECT_EQ(now.resources.limits, was.resources.limits);
            for (const auto& [n, v] : now.resources.requests) {
                auto old = was.resources.requests.find(n);
                if (old != was.resources.requests.end())
                    EXPECT_EQ(v, old->second) << n;
                else
                    EXPECT_EQ(v, was.resources.limits.at(n)) << n;
            }
            for (const auto& [n, v] : was.resources.limits)
                EXPECT_TRUE(now.resources.requests.count(n)) << n;
        };
        for (size_t i = 0; i < spec.containers.size(); ++i)
            check(before.containers[i], spec.containers[i]);
        for (size_t i = 0; i < spec.initContainers.size(); ++i)
            check(before.initContainers[i], spec.initContainers[i]);
        api::PodSpec again = spec;
        api::defaultRequestsFromLimits(again);
        for (size_t i = 0; i < spec.containers.size(); ++i)
            EXPECT_EQ(again.containers[i].resources.requests, spec.containers[i].resources.requests);
    }
}

TEST(PodResources, ExtendedResourceClaimStatusReadsAndWritesBack)
{
    const std::string yaml
        = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
          "  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]\n"
          "status:\n  extendedResourceClaimStatus:\n    requestMappings:\n"
          "    - {containerName: c, resourceName: nvidia.com/gpu, requestName: container-0-request-0}\n"
          "    resourceClaimName: p-extended-resources-x7k2q\n";
    auto r = yamlio::loadText(yaml, "t.yaml");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    const auto& st = r.objects.pods.at(0).extendedResourceClaimStatus;
    ASSERT_TRUE(st);
    EXPECT_EQ(st->resourceClaimName, "p-extended-resources-x7k2q");
    ASSERT_EQ(st->requestMappings.size(), 1u);
    EXPECT_EQ(st->requestMappings[0].requestName, "container-0-request-0");
    const std::string written = toYaml(yamlio::toData(r.objects.pods[0]));
    EXPECT_NE(written.find("  extendedResourceClaimStatus:\n    requestMappings:\n    - containerName: c\n"
                           "      resourceName: nvidia.com/gpu\n      requestName: container-0-request-0\n"
                           "    resourceClaimName: p-extended-resources-x7k2q\n"),
        std::string::npos)
        << written;
}

TEST(PodResources, ValidCombinationsPass)
{
    EXPECT_TRUE(errors(podWith("      limits: {nvidia.com/gpu: 2, cpu: \"4\"}\n"
                               "      requests: {nvidia.com/gpu: 2, cpu: 500m}\n"))
                    .empty());
    // kubernetes.io names are native: they may be overcommitted and need no limit.
    EXPECT_TRUE(
        errors(podWith("      requests: {example.kubernetes.io/widget: 500m, memory: 1Gi}\n")).empty());
    EXPECT_TRUE(errors(podWith("      limits: {hugepages-2Mi: 4Mi, memory: 1Gi}\n")).empty());
}

struct ResourcesCase
{
    const char* name;
    std::string resources;
    std::vector<std::string> expected; ///< every error, formatted
};

class PodResourcesInvalid : public ::testing::TestWithParam<ResourcesCase>
{
};

TEST_P(PodResourcesInvalid, ReportsLikeTheApiServer)
{
    EXPECT_EQ(errors(podWith(GetParam().resources)), GetParam().expected) << GetParam().name;
}

const std::string kAt = "t.yaml:9:";
const std::string kPath = "Pod default/p: spec.containers[0].resources.";

INSTANTIATE_TEST_SUITE_P(Rules, PodResourcesInvalid,
    ::testing::Values(
        ResourcesCase { "request below limit",
            "      requests: {nvidia.com/gpu: 1}\n      limits: {nvidia.com/gpu: 2}\n",
            { kAt + "34: " + kPath
                + "requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2" } },
        ResourcesCase { "request above limit",
            "      requests: {nvidia.com/gpu: 3}\n      limits: {nvidia.com/gpu: 2}\n",
            { kAt + "34: " + kPath
                + "requests: Invalid value: \"3\": must be equal to nvidia.com/gpu limit of 2" } },
        ResourcesCase { "request without limit", "      requests: {nvidia.com/gpu: 1}\n",
            { kAt + "34: " + kPath
                + "limits: Required value: Limit must be set for non overcommitable resources" } },
        ResourcesCase { "fraction of a gpu", "      limits: {nvidia.com/gpu: 0.5}\n",
            { kAt + "32: " + kPath + "limits[nvidia.com/gpu]: Invalid value: 500m: must be an integer" } },
        ResourcesCase { "cpu request above limit",
            "      requests: {cpu: \"2\"}\n      limits: {cpu: 1500m}\n",
            { kAt + "23: " + kPath
                + "requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1500m" } },
        ResourcesCase { "hugepages cannot be overcommitted",
            "      requests: {hugepages-2Mi: 2Mi, memory: 1Gi}\n      limits: {hugepages-2Mi: 4Mi}\n",
            { kAt + "33: " + kPath
                + "requests: Invalid value: \"2Mi\": must be equal to hugepages-2Mi limit of 4Mi" } },
        ResourcesCase { "bare name", "      limits: {gpu: 1}\n",
            { kAt + "21: " + kPath
                    + "limits[gpu]: Invalid value: \"gpu\": must be a standard resource type or fully "
                      "qualified",
                kAt + "21: " + kPath
                    + "limits[gpu]: Invalid value: \"gpu\": must be a standard resource for containers" } },
        ResourcesCase { "pods is not a container resource", "      requests: {pods: 1}\n",
            { kAt + "24: " + kPath
                + "requests[pods]: Invalid value: \"pods\": must be a standard resource for containers" } },
        ResourcesCase { "bad qualified name", "      limits: {nvidia.com/-gpu: 1}\n",
            { kAt + "33: " + kPath
                + "limits[nvidia.com/-gpu]: Invalid value: \"nvidia.com/-gpu\": name part must consist of "
                  "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                  "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                  "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')" } }),
    [](const ::testing::TestParamInfo<ResourcesCase>& info) {
        std::string s = info.param.name;
        for (char& c : s)
            if (!isalnum(static_cast<unsigned char>(c)))
                c = '_';
        return s;
    });

} // namespace
