"""Wording of the template renderer: several phrasings per slot, change and chat move.

Templates never contain question text; each slot phrase states exactly one value.
"""

from __future__ import annotations

SLOT_PHRASES: dict[str, tuple[str, ...]] = {
    "course": ("The course was {v}.", "It's all about {v}."),
    "provider": ("It's run by {v}.", "I signed up through {v}."),
    "fee": ("The fee was {v}.", "It cost {v} in the end."),
    "grade": ("I passed with {v}.", "My final score was {v}."),
    "employer": ("The company is {v}.", "I'm at {v} now."),
    "job_title": ("My title is {v}.", "Officially I'm a {v}."),
    "salary": ("The salary is {v} a year.", "They offered {v} a year."),
    "previous_employer": ("Before that I was at {v}.", "I handed in my notice at {v}."),
    "raise": ("It came with a {v} raise.", "I got a raise of {v}."),
    "conference_city": ("It was held in {v}.", "I flew to {v} for it."),
    "topic": ("The theme was {v}.", "Everything was about {v}."),
    "attendees": ("There were about {v} people there.", "Roughly {v} attendees showed up."),
    "city": ("The new place is in {v}.", "I'm in {v} now."),
    "previous_city": ("Leaving {v} was hard.", "I'd been in {v} for a while."),
    "rent": ("The rent is {v} a month.", "I pay {v} a month for it."),
    "person": ("Their name is {v}.", "It was {v}."),
    "place": ("It happened at {v}.", "That was at {v}."),
    "restaurant": ("We went to {v}.", "We ate at {v}."),
    "dish": ("I had the {v}.", "I ordered the {v}."),
    "partner": ("I mean {v}, of course.", "That's {v}."),
    "venue": ("It was at {v}.", "The venue was {v}."),
    "guests": ("We had {v} guests.", "{v} people came."),
    "band": ("The band was {v}.", "It was {v} playing."),
    "ticket_price": ("Tickets were {v}.", "I paid {v} for the ticket."),
    "distance": ("The distance was {v}.", "It was {v} in total."),
    "finish_time": ("I finished in {v}.", "My time was {v}."),
    "title": ("The book was {v}.", "It's called {v}."),
    "author": ("It's by {v}.", "The author is {v}."),
    "hobby": ("Now it's {v}.", "I'm into {v} these days."),
    "previous_hobby": ("I gave up {v}.", "No more {v} for me."),
    "club": ("I joined {v}.", "I'm a member of {v} now."),
    "injury": ("It was {v}.", "The doctor said it's {v}."),
    "activity": ("It happened while I was {v}.", "That was during {v}."),
    "clinic": ("I went to {v}.", "They saw me at {v}."),
    "sessions": ("It took {v} sessions.", "I needed {v} sessions."),
    "therapist": ("My therapist was {v}.", "I worked with {v}."),
    "body_part": ("It was for my {v}.", "All for the {v}."),
    "doctor": ("I saw {v}.", "{v} did the check."),
    "result": ("The result: {v}.", "They found {v}."),
    "pet_name": ("Name: {v}.", "We call them {v}."),
    "issue": ("It was {v}.", "Turned out to be {v}."),
    "vet_bill": ("The vet bill was {v}.", "It cost {v} at the vet."),
    "destination": ("We went to {v}.", "The destination was {v}."),
    "price": ("It cost {v}.", "I paid {v}."),
    "agency": ("I booked it through {v}.", "I found it via {v}."),
    "duration": ("It lasted {v}.", "We stayed {v}."),
    "companion": ("I went with {v}.", "My travel buddy was {v}."),
    "car": ("The car was {v}.", "That's {v}."),
    "item": ("It's a {v}.", "A new {v}."),
    "brand": ("The brand is {v}.", "I went with {v}."),
    "model": ("It's the {v}.", "The model is the {v}."),
    "colour": ("It's {v}.", "I picked {v}."),
    "store": ("I got it at {v}.", "I bought it from {v}."),
    "garage": ("It's at {v}.", "{v} took it in."),
    "repair_cost": ("The repair came to {v}.", "They quoted {v}."),
    "dealership": ("It was at {v}.", "{v} let me try it."),
    "previous_car": ("It replaced {v}.", "Goodbye to {v}."),
    "species": ("It's a {v}.", "A {v}, yes."),
    "breed": ("The breed is {v}.", "{v}, to be exact."),
    "adoption_fee": ("The adoption fee was {v}.", "Adoption cost {v}."),
    "organisation": ("It was at {v}.", "I helped out at {v}."),
    "hours": ("I put in {v}.", "About {v} altogether."),
    "task": ("I {v}.", "Finally {v}."),
    "office": ("I had to deal with {v}.", "It went through {v}."),
    "repair": ("It was {v}.", "We had {v}."),
    "cost": ("It cost {v}.", "The bill was {v}."),
    "plumber": ("{v} came over.", "I called {v}."),
    "with": ("It was {v}.", "That was {v}."),
    "relation": ("We're {v}s, you know.", "As {v}s do."),
}

CHANGE_PHRASES: dict[str, tuple[str, ...]] = {
    "employer": (
        "So I'm not at {old} anymore; I work for {new} now.",
        "That means {old} is behind me, and {new} is my employer now.",
    ),
    "job_title": (
        "My job title changed from {old} to {new}.",
        "I'm a {new} now, no longer a {old}.",
    ),
    "city": ("I live in {new} now, not {old}.", "So home is {new} now instead of {old}."),
    "relationship_status": (
        "Relationship status: {new}, no longer {old}.",
        "I'm {new} now, not {old} anymore.",
    ),
    "partner": ("My partner is {new} now.", "So {new} and I are together."),
    "partner_none": ("{old} and I are not together anymore.", "So no more {old} in my life."),
    "pet": ("I've got {new} now.", "My pet is {new} now."),
    "car": ("I drive {new} now; {old} is gone.", "So my car is {new} now, not {old}."),
    "car_first": ("I drive {new} now.", "My car is {new} now."),
    "hobby": ("My main hobby is {new} now, not {old}.", "These days it's {new} rather than {old}."),
}

PROFILE_PHRASES: dict[str, str] = {
    "employer": "I work at {v}.",
    "job_title": "My job is {v}.",
    "city": "I live in {v}.",
    "relationship_status": "Relationship-wise I'm {v}.",
    "partner": "Partner: {v} at the moment.",
    "pet": "Pets: {v} for now.",
    "car": "As for a car, I have {v}.",
    "hobby": "My main hobby is {v}.",
}

GREETINGS = (
    "Hey {name}, good to talk again. What's new since last time?",
    "Hi {name}! How have things been?",
    "Good to see you, {name}. Catch me up?",
    "{name}! It's been a while. What have you been up to?",
    "Hello again, {name}. Anything happen since we last talked?",
)

FIRST_GREETINGS = (
    "Hi, I'm {other}. Tell me a bit about yourself, {name}.",
    "Nice to meet you properly, {name}. Where are you at in life right now?",
)

REACTIONS = (
    "Oh wow, tell me more.",
    "Really? How did that go?",
    "No way! What were the details?",
    "That sounds like a lot. How was it?",
    "Interesting. And then?",
    "Nice! Go on.",
    "Huh, I didn't see that coming. What happened?",
    "Good for you. Details, please!",
)

CALLBACKS = (
    "Do you still think about when you {summary}?",
    "I was just remembering the time you {summary}.",
    "Whatever happened after you {summary}?",
)

CALLBACK_REPLIES = (
    "Oh, when I {summary}? That was {when}. Feels like ages.",
    "Ha, yes, I {summary} {when}. Good times, mostly.",
    "Right, I {summary}. That was {when}.",
)

SMALL_TALK_PROMPTS = (
    "Anything else going on?",
    "How's the week been otherwise?",
    "Seen anything good lately?",
    "How are you sleeping these days?",
    "What did you have for dinner last night?",
    "Any plans for the weekend?",
    "How's the weather been where you are?",
    "Read or watched anything worth recommending?",
    "How's your family?",
    "Are you keeping busy?",
)

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

SMALL_TALK_TAILS = (
    "Nothing dramatic.",
    "Small things, really.",
    "That's about it on that front.",
    "It's the little things.",
    "Not much else to report.",
    "Anyway.",
    "Life goes on.",
    "I'll keep you posted.",
    "Funny how that works.",
    "Could be worse.",
)

INTERLOCUTOR_SMALL_TALK = (
    "Same here, honestly.",
    "Ha, I know the feeling.",
    "That sounds nice.",
    "Fair enough.",
    "I should try that too.",
    "Oh, I hear you.",
    "Sounds like a decent week.",
)

GOODBYES = (
    "Anyway, I should go. Talk soon!",
    "Okay, that's my news. Until next time.",
    "I have to run, but this was nice.",
    "Let's catch up again soon.",
)

GOODBYE_REPLIES = ("Take care!", "Talk soon!", "Bye for now.", "Looking forward to it.")
