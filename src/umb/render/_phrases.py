"""Wording of the template renderer that is not tied to one event kind or to small talk.

Changes, the profile, greetings, goodbyes, callbacks and reactions; templates never contain
question text. ``{x_a}`` is ``x`` with its article.
"""

from __future__ import annotations

CHANGE_PHRASES: dict[str, tuple[str, ...]] = {
    "employer": (
        "So I'm not at {old} anymore; I work for {new} now.",
        "That means {old} is behind me, and {new} is my employer now.",
        "I work for {new} now, no longer {old}.",
    ),
    "job_title": (
        "My job title changed from {old} to {new}.",
        "I'm {new_a} now, no longer {old_a}.",
        "Officially I'm {new_a} now instead of {old_a}.",
    ),
    "city": (
        "I live in {new} now, not {old}.",
        "So home is {new} now instead of {old}.",
        "I'm {new_a} resident now; {old} is in the past.",
    ),
    "relationship_status": (
        "My relationship status went from {old} to {new}.",
        "I'm {new} now, not {old} anymore.",
    ),
    "partner": ("My partner is {new} now.", "So {new} and I are together."),
    "partner_none": ("{old} and I are not together anymore.", "So no more {old} in my life."),
    "pet": ("I've got {new} now.", "My pet is {new} now.", "So I share the flat with {new} now."),
    "car": (
        "I drive {new} now; {old} is gone.",
        "So my car is {new} now, not {old}.",
        "{new} is my car now, no longer {old}.",
    ),
    "car_first": ("I drive {new} now.", "My car is {new} now, my first one."),
    "hobby": (
        "My main hobby is {new} now, not {old}.",
        "These days it's {new} rather than {old}.",
        "I've swapped {old} for {new}, basically.",
    ),
}

#: The profile, told in the first session: (template, attributes it states).
PROFILE: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = (
    (
        ("I work as {job_title_a} at {employer}, and I live in {city}.",
         ("job_title", "employer", "city")),
        ("I'm {job_title_a}, with {employer} for a few years now. Home is {city}.",
         ("job_title", "employer", "city")),
        ("I live in {city} and work at {employer}; my job is {job_title}.",
         ("city", "employer", "job_title")),
    ),
    (
        ("Relationship-wise I'm {relationship_status}, {partner_say}.",
         ("relationship_status", "partner")),
        ("I'm {relationship_status} at the moment, {partner_say}.",
         ("relationship_status", "partner")),
    ),
    (
        ("{pet_say}, and {car_say}. In my free time it's mostly {hobby}.", ("pet", "car", "hobby")),
        ("My main hobby is {hobby}. {pet_cap}, and {car_say}.", ("hobby", "pet", "car")),
    ),
)  # fmt: skip

NONE_SAY = {
    "partner": "no partner right now",
    "pet": "no pets for now",
    "car": "I don't have a car",
}
SOME_SAY = {"partner": "my partner is {v}", "pet": "I have {v}", "car": "I drive {v}"}

FIRST_GREETINGS = (
    "Hi, I'm {other}. Tell me a bit about yourself, {name}.",
    "Nice to meet you properly, {name}. Where are you at in life right now?",
    "So, {name}, I'm {other}. Start wherever you like: work, home, whatever matters.",
)

HELLO = (
    "Hey {name}", "Hi {name}", "Good to see you, {name}", "{name}, hello", "Hello again, {name}",
    "There you are, {name}", "Morning, {name}", "Oh, hi {name}",
)  # fmt: skip
HOW = (
    "what's new since last time?", "how have things been?", "catch me up?",
    "it's been a while. What have you been up to?", "anything happen since we last talked?",
    "how's life treating you?", "what's the news?", "how did the last few weeks go?",
    "tell me everything.", "how are you holding up?",
)  # fmt: skip

BYE = (
    "Anyway, I should go", "Okay, that's my news", "I have to run", "Right, I'd better get going",
    "I should let you go", "That's all from me for now", "Oh, look at the time",
)  # fmt: skip
BYE_TAIL = (
    "Talk soon!", "Until next time.", "This was nice.", "Let's catch up again soon.",
    "Thanks for listening.", "Same time next week?", "Say hi to everyone for me.",
)  # fmt: skip
BYE_REPLY = (
    "Take care, {name}", "Talk soon, {name}", "Bye for now, {name}", "Look after yourself, {name}",
    "Good to hear from you, {name}", "Go, go, {name}", "Always a pleasure, {name}",
)  # fmt: skip
BYE_REPLY_TAIL = (
    "Say hi to {friend} for me.", "Give my love to {friend}.", "Tell {friend} I said hello.",
    "Hug {friend} from me.", "Don't let {friend} wind you up.", "Remind {friend} about Sunday.",
)  # fmt: skip

CALLBACKS = (
    "Do you still think about when you {summary}?",
    "I was just remembering the time you {summary}.",
    "Whatever happened after you {summary}?",
    "Random thought, but how do you feel now about when you {summary}?",
    "It's funny, I keep thinking about the time you {summary}.",
)

#: The character's reply to a callback, by the event's mood (``_kindtalk.MOOD``): a setback is
#: never "good times", a promotion never "not my favourite memory".
CALLBACK_REPLIES: dict[str, tuple[str, ...]] = {
    "neutral": (
        "Oh, when I {summary}? That was {when}. Feels like ages.",
        "Right, I {summary}. That was {when}.",
        "Ah, that. I {summary} {when}, and I still think about it.",
        "I {summary} {when}, which feels like another life now.",
    ),
    "good": (
        "Ha, yes, I {summary} {when}. Good times, mostly.",
        "I {summary} {when}, and I'd do it again in a heartbeat.",
    ),
    "bad": (
        "Ugh, yes, I {summary} {when}. Not my favourite memory.",
        "Don't remind me. I {summary} {when}.",
    ),
}

#: The interlocutor's reaction to news, by its mood; neutral ones fit any news.
REACTIONS: dict[str, tuple[str, ...]] = {
    "neutral": (
        "Oh wow, tell me more.", "Really?", "Interesting.", "Huh, I didn't see that coming.",
        "Hang on, really?", "You never told me that was happening!", "Okay, I need the full story.",
        "Well, well.", "I had a feeling something was up.", "How did I not know about this?",
        "Since when?", "Hold on, back up.", "You kept that quiet!",
    ),
    "good": (
        "No way!", "Nice!", "Good for you.", "Oh, that's exciting.", "That's huge.", "Ooh.",
        "I'm so glad you did that.", "That's brave.", "That's such good news.",
        "Look at you!", "About time, too.", "That made my day.", "Proud of you.",
        "You deserve it.", "Oh, I love that for you.", "Finally some good news!",
    ),
    "bad": (
        "Oh no, and then what?", "That sounds like a lot.", "That must have been a relief.",
        "Oh no.", "Ugh, I'm sorry.", "That's rotten luck.", "Oof, that sounds stressful.",
        "Poor you!", "What a pain.", "That's the last thing you needed.", "Oh, that's awful.",
        "I hope you're okay.", "How rubbish.", "Of all the luck.", "Oh, mate.",
        "Sorry, that sounds horrible.",
    ),
}  # fmt: skip

#: How the interlocutor moves on to the next piece of news.
NEXT = (
    "What else?", "Anything else?", "And then?", "More news?", "Go on.", "What next?",
    "Keep going.", "Spill.", "And?", "Tell me more.", "What else happened?", "Continue!",
    "Any other news?", "Next?", "Go on, then.", "I'm listening.",
)  # fmt: skip

#: How the character adds a detail nobody asked for.
ADD_ONS = (
    "Oh, and", "Also,", "And by the way,", "Plus,", "Before I forget,", "Funny detail:",
    "Oh, and another thing:",
)  # fmt: skip

#: Topics the LLM renderer's plans draw filler from (the template renderer composes its own).
SMALL_TALK_TOPICS = (
    "the weather has been all over the place",
    "I've been trying to drink less coffee",
    "there's a new bakery on the corner that's always packed",
    "I finally finished that series everyone talks about",
    "the trains have been delayed a lot",
    "I started going to bed earlier",
    "my plants are somehow still alive",
    "I keep meaning to call my grandmother more",
    "the neighbours are renovating again",
    "I tried a new recipe with lentils",
    "I've been listening to a podcast about space",
    "my inbox is a disaster",
    "I reorganised my bookshelf by colour",
    "the park nearby has new benches",
    "I found an old photo album in a box",
    "I might repaint the hallway",
    "I've been walking more instead of taking the bus",
    "a friend recommended a documentary about octopuses",
    "my phone screen has a new crack",
    "I cleaned out the fridge, finally",
    "the local market has great tomatoes right now",
    "I'm trying to learn a few chords on a borrowed ukulele",
    "there was a power cut on our street",
    "I've been doing crosswords on the train",
    "my cousin sent me a huge box of oranges",
    "I keep losing my umbrella",
    "I rearranged the furniture in the living room",
    "the gym was too crowded this week",
    "I ordered way too much takeaway",
    "I watched the sunset from the bridge one evening",
)
