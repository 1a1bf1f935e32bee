#!/usr/bin/env python3
"""Checks format_choice_eval.evaluate on pairs made up here: the pick's ratio, the rule rows,
the pairs above the launch bound, the misses and each kernel's predicted/measured ratio.
Run by bench/ci/run-ci-checks.sh; exit status 0 when every check holds."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import format_choice_eval as fce  # noqa: E402


class Evaluate(unittest.TestCase):
    def setUp(self):
        # milliseconds: a small pair (fastest 4 us) the model gets right, a large one
        # (fastest 20 us) where it picks a kernel 1.5 times slower
        self.meas = {("small", "double"): {"coo-atomic": 0.004, "csr-vector": 0.005, "cusparse-csr": 0.008},
                     ("large", "float"): {"csr-vector": 0.030, "csr-merge": 0.020, "cusparse-csr": 0.025}}
        self.pred = {("small", "double"): {"coo-atomic": 0.0042, "csr-vector": 0.0050},
                     ("large", "float"): {"csr-vector": 0.018, "csr-merge": 0.019, "ell": 0.040}}

    def test_rules_and_misses(self):
        rules, errors, misses = fce.evaluate(self.meas, self.pred)
        self.assertEqual(sorted(rules["pick"]), [1.0, 1.5])
        self.assertEqual(rules["pick-fastest-above-10us"], [1.5])
        self.assertEqual(sorted(rules["always-csr-vector"]), [1.25, 1.5])
        self.assertEqual(sorted(rules["cusparse-csr"]), [1.25, 2.0])
        row = fce.rule_row("pick", rules["pick"])
        self.assertEqual((row["pairs"], row["within_10pct"], row["worst_over_best"]), (2, 1, "1.50"))
        self.assertEqual(len(misses), 1)
        miss = misses[0]
        self.assertEqual((miss["matrix"], miss["pick"], miss["best"]), ("large", "csr-vector", "csr-merge"))
        self.assertEqual((miss["pick_us"], miss["best_predicted_us"], miss["pick_over_best"]),
                         ("30.000", "19.000", "1.500"))
        self.assertEqual(list(miss), fce.MISS_FIELDS)
        # ell was predicted but never measured: it is no kernel's error and no pick
        self.assertNotIn("ell", errors)
        self.assertAlmostEqual(errors["coo-atomic"][0], 1.05)

    def test_a_pair_without_predictions_is_left_out(self):
        rules, _, misses = fce.evaluate(self.meas, {("small", "double"): self.pred[("small", "double")]})
        self.assertEqual(rules["pick"], [1.0])
        self.assertEqual(misses, [])

    def test_a_given_pick_replaces_the_least_prediction(self):
        rules, _, misses = fce.evaluate(self.meas, self.pred, {("large", "float"): "csr-merge"})
        self.assertEqual(sorted(rules["pick"]), [1.0, 1.0])
        self.assertEqual(misses, [])


class FromSummary(unittest.TestCase):
    def test_predictions_and_pick_come_from_the_rows_that_ran(self):
        import tempfile
        rows = ["matrix,precision,backend,kernel,status,ms,predicted_ms,model_pick",
                "stencil,double,cuda,csr-vector,ok,0.010,0.011,0",
                "stencil,double,cuda,ell,ok,0.008,0.009,1",
                "stencil,double,cuda,csr5,skipped,,0.001,0",
                "stencil,double,cpu,csr,ok,0.5,0.2,0",
                "stencil,double,cuda,cusparse-csr,ok,0.012,,0"]
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write("\n".join(rows) + "\n")
        try:
            pred, picks = fce.predicted_in_summary(f.name)
            meas = fce.measured(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(pred[("stencil", "double")], {"csr-vector": 0.011, "ell": 0.009})
        self.assertEqual(picks, {("stencil", "double"): "ell"})
        rules, errors, _ = fce.evaluate(meas, pred, picks)
        self.assertEqual(rules["pick"], [1.0])
        self.assertAlmostEqual(errors["csr-vector"][0], 1.1)


if __name__ == "__main__":
    unittest.main()
