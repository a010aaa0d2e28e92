# ruff: noqa: E501  (the pairs read best one per line)
"""Pairs written for the semantic tests: the same fact in other words, and pairs that are not.

Each pair is (a, b). ``PARAPHRASES`` say the same thing with few shared words; ``UNRELATED``
are about different things, some in the same domain (a support chat, an incident) so that a
shared topic alone does not count.
"""

PARAPHRASES = [
    (
        "The parcel left our Berlin warehouse on Monday.",
        "Your package was shipped from Berlin on Monday.",
    ),
    ("I want my money back for this order.", "Please refund the purchase."),
    (
        "The meeting has been moved to Thursday afternoon.",
        "We rescheduled the call for Thursday after lunch.",
    ),
    ("My password no longer works.", "I can't log in with my credentials anymore."),
    ("The server crashed after the deploy.", "Right after we released, the backend went down."),
    ("Can you send me the invoice?", "Please email the bill to me."),
    (
        "The flight was cancelled because of the storm.",
        "Bad weather grounded the plane, so the trip is off.",
    ),
    ("I would like to upgrade to business class.", "Could you move me up to a business seat?"),
    ("The delivery is three days late.", "My shipment should have arrived three days ago."),
    ("Thanks a lot for your help!", "I really appreciate your assistance."),
    (
        "The latency doubled since yesterday.",
        "Response times are twice as slow as they were yesterday.",
    ),
    ("Please cancel my subscription.", "I want to stop my membership plan."),
    (
        "The file is too large to upload.",
        "Uploading fails because the document exceeds the size limit.",
    ),
    ("We need to hire two more engineers.", "The team should grow by a couple of developers."),
    ("Where is my order?", "What is the status of my purchase?"),
    ("The battery drains very quickly.", "My phone runs out of charge fast."),
    (
        "I was charged twice for the same item.",
        "There are two payments for one product on my card.",
    ),
    (
        "The app keeps crashing on start.",
        "Every time I open the application it closes immediately.",
    ),
    ("Could you change the delivery address?", "I need the shipment sent to a different location."),
    ("The tests fail on the main branch.", "The test suite is red on main."),
]

UNRELATED = [
    ("The parcel left our Berlin warehouse on Monday.", "My password no longer works."),
    ("I want my money back for this order.", "The server crashed after the deploy."),
    ("The meeting has been moved to Thursday afternoon.", "The battery drains very quickly."),
    ("Can you send me the invoice?", "The flight was cancelled because of the storm."),
    ("Thanks a lot for your help!", "The latency doubled since yesterday."),
    ("Please cancel my subscription.", "We need to hire two more engineers."),
    ("The file is too large to upload.", "Where is my order?"),
    ("I would like to upgrade to business class.", "The tests fail on the main branch."),
    ("The app keeps crashing on start.", "Could you change the delivery address?"),
    ("I was charged twice for the same item.", "The delivery is three days late."),
    # Same domain, different facts.
    ("The parcel left our Berlin warehouse on Monday.", "Please refund the purchase."),
    ("Where is my order?", "I was charged twice for the same item."),
    ("The server crashed after the deploy.", "We need to hire two more engineers."),
    (
        "The flight was cancelled because of the storm.",
        "I would like to upgrade to business class.",
    ),
    ("Can you send me the invoice?", "Could you change the delivery address?"),
    ("My password no longer works.", "The battery drains very quickly."),
    ("The latency doubled since yesterday.", "The tests fail on the main branch."),
    ("Please cancel my subscription.", "Thanks a lot for your help!"),
    ("The meeting has been moved to Thursday afternoon.", "The file is too large to upload."),
    ("The app keeps crashing on start.", "I want my money back for this order."),
]

# Written after the default threshold was chosen on the pairs above, and used only to measure.
HELD_OUT_PARAPHRASES = [
    ("The hotel room was dirty when we arrived.", "On arrival we found the room unclean."),
    ("My card was declined at checkout.", "The payment did not go through when I tried to pay."),
    ("The train to Lyon is delayed by an hour.", "Our Lyon train is running sixty minutes late."),
    ("Please reset my account.", "Could you restore my profile to its initial state?"),
    ("The printer is out of paper.", "There are no sheets left in the printer."),
    ("The build takes too long.", "Compiling the project is far too slow."),
    ("I lost my luggage at the airport.", "My suitcase went missing at the terminal."),
    ("The discount code does not work.", "The promo voucher is not accepted."),
    ("We moved the launch to next month.", "The release date was pushed back by a month."),
    ("The screen is cracked.", "The display glass is broken."),
]
HELD_OUT_UNRELATED = [
    ("The hotel room was dirty when we arrived.", "The build takes too long."),
    ("My card was declined at checkout.", "The screen is cracked."),
    ("The train to Lyon is delayed by an hour.", "The discount code does not work."),
    ("Please reset my account.", "I lost my luggage at the airport."),
    ("The printer is out of paper.", "We moved the launch to next month."),
    ("The build takes too long.", "My card was declined at checkout."),
    ("I lost my luggage at the airport.", "The hotel room was dirty when we arrived."),
    ("The discount code does not work.", "The printer is out of paper."),
    ("We moved the launch to next month.", "The screen is cracked."),
    ("The screen is cracked.", "The train to Lyon is delayed by an hour."),
]
