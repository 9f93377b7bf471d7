"""Rule words follow the data: a variant that changes a number changes the rule's wording."""

from referee.spec.loader import load_spec


def test_bank_sale_words_follow_a_variant(tmp_path):
    overlay = tmp_path / "hamburgum-bank-forty.yaml"
    overlay.write_text("kind: variant\nid: generous-bank\ngame: hamburgum\ntitle: The bank pays forty\nchanges:\n  market:\n    bank_sale: {price: 40}\n")
    base = load_spec("hamburgum").rules["hamburgum/bank-sale"]
    generous = load_spec("hamburgum", [str(overlay)]).rules["hamburgum/bank-sale"]
    assert base.title == "Goods that do not fit on a ship may go to the bank for 30"
    assert "for 30 thalers each" in base.text
    assert generous.title == "Goods that do not fit on a ship may go to the bank for 40"
    assert "{" not in generous.text and "for 40 thalers each" in generous.text
