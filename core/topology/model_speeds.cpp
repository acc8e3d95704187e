// SPDX-License-Identifier: Apache-2.0
#include "core/topology/model_speeds.h"

#include "core/topology/device_models.h"

namespace drasim::topology {

namespace {

struct ModelSpeed
{
    const char* id; ///< built-in model id (device_models.cpp)
    double tflops; ///< dense BF16 tensor TFLOPS
};

// Dense BF16 tensor-core throughput per GPU as the vendors' data sheets give it, without 2:4
// structured sparsity (the data sheets' starred figures are twice these; dense training does not
// reach them). Peak figures: real training steps reach a model-dependent share of them, and
// memory-bound work gains less than the ratio says, so a study that has measured its own jobs
// overrides them in the workload's `speed.models`.
// - A100 (SXM4 40GB and 80GB, PCIe 80GB): 312. NVIDIA A100 Tensor Core GPU data sheet, "BFLOAT16
//   Tensor Core 312 TFLOPS | 624 TFLOPS*". The PCIe card has the same peak at a lower power limit.
// - H100 SXM5: 989. NVIDIA H100 Tensor Core GPU data sheet, H100 SXM column, "BFLOAT16 Tensor
//   Core 1,979 teraFLOPS*" (with sparsity).
// - H200 SXM: 989. NVIDIA H200 Tensor Core GPU data sheet, "BFLOAT16 Tensor Core 1,979 TFLOPS*":
//   the same GH100 compute as the H100; its gain is memory (141 GB at 4.8 TB/s against 80 GB at
//   3.35 TB/s), which the peak does not show. Memory-bound jobs deserve an override.
// - B200 (HGX, 1000 W): 2250. NVIDIA HGX B200 data sheet, "FP16/BF16 Tensor Core 36 PFLOPS*" for
//   eight GPUs with sparsity: 4.5 per GPU, 2.25 dense.
// - GB200 (NVL72, 1200 W): 2500. NVIDIA GB200 NVL72 data sheet, "FP16/BF16 Tensor Core 360
//   PFLOPS*" for 72 GPUs with sparsity: 5 per GPU, 2.5 dense.
// - L40S: 362. NVIDIA L40S data sheet, "BF16 Tensor Core 362.05 | 733 TFLOPS*".
// - MI300X: 1307. AMD Instinct MI300X data sheet, "Peak bfloat16 1307.4 TFLOPs" (dense; 2614.9
//   with sparsity).
// - Gaudi3: 1835. Intel Gaudi 3 AI Accelerator white paper, "BF16 1835 TFLOPs" (matrix engines).
const ModelSpeed kSpeeds[] = {
    { "A100-SXM4-40GB", 312 },
    { "A100-SXM4-80GB", 312 },
    { "A100-PCIE-80GB", 312 },
    { "H100-SXM5-80GB", 989 },
    { "H200-SXM5-141GB", 989 },
    { "B200-SXM-180GB", 2250 },
    { "GB200-186GB", 2500 },
    { "L40S", 362 },
    { "MI300X", 1307 },
    { "Gaudi3", 1835 },
};

std::map<std::string, double> buildSpeeds()
{
    std::map<std::string, double> out;
    for (const auto& s : kSpeeds)
        if (const DeviceModel* m = findBuiltinModel(s.id))
            out[m->productName] = s.tflops;
    return out;
}

} // namespace

const std::map<std::string, double>& catalogModelSpeeds()
{
    static const std::map<std::string, double> speeds = buildSpeeds();
    return speeds;
}

} // namespace drasim::topology
