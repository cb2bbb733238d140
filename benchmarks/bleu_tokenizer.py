"""How far BLEU-1 moves between the untrained Punkt splitter and NLTK's English parameters.

Each LoCoMo gold answer is scored against itself with an abbreviation-laden sentence appended,
both ways round, under both sentence models (text lower-cased first, as the Mem0 harness does);
prints the largest difference.

    python benchmarks/bleu_tokenizer.py ../shared/external/locomo10.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from nltk.tokenize import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
from punkt.data import english

SUFFIXES = (" J.K. Rowling wrote it. Then more.", " Dr. Smith met Mr. Lee at 5 p.m. on Jan. 3. Ok.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("locomo")
    args = parser.parse_args()
    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context.update(english.ORTHO_CONTEXT)
    models = {"untrained": PunktSentenceTokenizer(), "english": PunktSentenceTokenizer(params)}
    words = NLTKWordTokenizer()

    def bleu(model: PunktSentenceTokenizer, pred: str, gold: str) -> float:
        def tok(t: str) -> list[str]:
            return [w for s in model.tokenize(t) for w in words.tokenize(s)]

        smooth = SmoothingFunction().method1
        return float(sentence_bleu([tok(gold)], tok(pred), (1, 0, 0, 0), smooth))

    worst, n = (0.0, ""), 0
    for sample in json.loads(Path(args.locomo).read_text()):
        for qa in sample["qa"]:
            gold = str(qa.get("answer", "")).lower()
            for suffix in SUFFIXES:
                longer = (gold + suffix).lower()
                for pred, ref in ((longer, gold), (gold, longer)):
                    a, b = bleu(models["untrained"], pred, ref), bleu(models["english"], pred, ref)
                    n += 1
                    worst = max(worst, (abs(a - b), f"{pred!r} vs {ref!r}"))
    print(f"{n} pairs; largest BLEU-1 difference {worst[0]:.3f} on {worst[1]}")


if __name__ == "__main__":
    main()
