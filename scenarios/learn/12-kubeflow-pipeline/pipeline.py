# SPDX-License-Identifier: Apache-2.0
# The source of pipeline.yaml (kfp 2.15 with kfp-kubernetes): `kfp dsl compile --py pipeline.py
# --output pipeline.yaml` writes the IR drasim reads. Not read by drasim itself.
from kfp import dsl, kubernetes


@dsl.container_component
def prepare_data(dataset: dsl.Output[dsl.Dataset]):
    return dsl.ContainerSpec(image="registry.example.com/ml/finetune:2.3",
                             command=["python3", "-m", "finetune.prepare"],
                             args=["--out", dataset.path])


@dsl.container_component
def finetune(base_model: str, steps: int, dataset: dsl.Input[dsl.Dataset],
             checkpoint: dsl.Output[dsl.Model]):
    return dsl.ContainerSpec(image="registry.example.com/ml/finetune:2.3",
                             command=["torchrun", "--nproc-per-node=2", "-m", "finetune.train"],
                             args=["--base-model", base_model, "--steps", steps,
                                   "--dataset", dataset.path, "--checkpoint", checkpoint.path])


@dsl.container_component
def evaluate(checkpoint: dsl.Input[dsl.Model], Output: dsl.OutputPath(float)):
    return dsl.ContainerSpec(image="registry.example.com/ml/finetune:2.3",
                             command=["python3", "-m", "finetune.evaluate"],
                             args=["--checkpoint", checkpoint.path, "--score", Output])


@dsl.container_component
def publish(checkpoint: dsl.Input[dsl.Model], score: float):
    return dsl.ContainerSpec(image="registry.example.com/ml/finetune:2.3",
                             command=["python3", "-m", "finetune.publish"],
                             args=["--checkpoint", checkpoint.path, "--score", score])


@dsl.pipeline(name="llm-finetune",
              description="Prepare a dataset, fine-tune on two GPUs from a DRA claim template, "
                          "evaluate on the GPU claim given as a run parameter, publish.")
def llm_finetune(eval_claim: dict, base_model: str = "llama-3.1-8b", steps: int = 2000):
    data = prepare_data().set_cpu_request("8").set_memory_request("16G")
    data.set_caching_options(True)
    train = finetune(base_model=base_model, steps=steps, dataset=data.outputs["dataset"])
    train.set_cpu_request("16").set_memory_request("128G").set_caching_options(False)
    # A claim from a ResourceClaimTemplate that exists in the run's namespace.
    kubernetes.add_resource_claim(train, resource_claim_template_name="gpu-pair")
    score = evaluate(checkpoint=train.outputs["checkpoint"])
    score.set_cpu_request("4").set_memory_request("32G").set_caching_options(False)
    # The claim chosen per run: the eval_claim parameter, e.g. {"resourceClaimTemplateName": "mig-3g20gb"}.
    kubernetes.add_resource_claim_json(score, eval_claim)
    publish(checkpoint=train.outputs["checkpoint"], score=score.output).set_caching_options(False)
