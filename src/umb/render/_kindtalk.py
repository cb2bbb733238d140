"""How a character tells each kind of event: openers naming several slots, then follow-ups.

An opener is one or two sentences that say the event happened, when (``{when}``), and some of
its slots (``{slot}``). Slots an opener leaves out are asked about by the interlocutor
(:data:`ASK`) and answered by the character (:data:`SAY`, kind-specific wording first). Each
template names exactly the slots it states, so the renderer knows which fact ids a line carries.
``{other}`` is the other person of a joint event; ``{gerund}`` the activity as ``doing X``.
"""

from __future__ import annotations

from umb.render import _phrases as P

OPENERS: dict[str, tuple[str, ...]] = {
    "course_enrol": (
        "{when} I finally signed up for {course_a} course with {provider}, and the fee was {fee}.",
        "I enrolled in {course_a} course {when}. It's through {provider}.",
        "So {when} I took the plunge and enrolled in {course} classes at {provider}.",
    ),
    "certification": (
        "{when} I earned my {course} certificate, with {grade} on the final assessment!",
        "I have {course_a} certificate now; I got it {when}.",
        "The {course} course is done: {when} they handed me the certificate.",
    ),
    "job_change": (
        "{when} I started a new job at {employer} as {job_title_a}.",
        "Big news: I began at {employer} {when}, leaving {previous_employer} behind.",
        "I'm officially {job_title_a} now. My first day at {employer} was {when}, "
        "and the pay is {salary} a year.",
    ),
    "promotion": (
        "{when} they promoted me to {job_title} at {employer}.",
        "I got promoted to {job_title} {when}, with {raise_a} raise!",
        "{when} my manager at {employer} told me I'd been promoted.",
    ),
    "conference": (
        "{when} I was at a conference on {topic} in {conference_city}.",
        "I flew to {conference_city} for a conference {when}, with about {attendees} people "
        "in one hall.",
        "{when} I attended {topic_a} conference; they held it in {conference_city} this time.",
    ),
    "move": (
        "{when} I moved from {previous_city} to {city}. The rent is {rent} a month.",
        "I moved to {city} {when}, and the last boxes are finally out of the van.",
        "{when} I handed back the keys in {previous_city} and moved into a flat in {city}.",
    ),
    "met_someone": (
        "{when} I met someone called {person} at {place}.",
        "I got talking to {person} {when}, of all places at {place}.",
        "{when} at {place} I ended up chatting for ages with {person}.",
    ),
    "first_date": (
        "{when} I went on a first date with {person} at {restaurant}.",
        "So {person} and I finally had our first date {when}. I had the {dish}.",
        "{when} was my first date with {person}; we ate at {restaurant}.",
    ),
    "start_dating": (
        "{when} {partner} and I made it official: we're dating.",
        "I started dating {partner} {when}, it just happened.",
        "{when} {partner} asked if we could call it a relationship, and I said yes.",
    ),
    "engagement": (
        "{when} {partner} and I got engaged in {place}!",
        "{partner} proposed {when}, while we were in {place}, so I'm engaged!",
        "{when} I said yes to {partner}; we got engaged on a trip to {place}.",
    ),
    "wedding": (
        "{when} I married {partner}, at {venue}, with {guests} guests.",
        "{partner} and I got married {when}. We had it at {venue}.",
        "{when} was our wedding day, {partner} and me, in front of {guests} guests.",
    ),
    "breakup": (
        "{when} {partner} and I broke up.",
        "I broke up with {partner} {when}. It had been coming for a while.",
        "{when} {partner} and I decided to split up for good.",
    ),
    "concert": (
        "{when} I saw {band} live at {venue}.",
        "I went to see {band} {when}. The ticket was {ticket_price}.",
        "{when} I finally caught {band} at {venue}, and they were brilliant.",
    ),
    "race": (
        "{when} I ran {distance_a} race and finished in {finish_time}.",
        "I ran {distance_a} race {when}!",
        "{when} I ran {distance_a} race; my time was {finish_time}.",
    ),
    "book": (
        "{when} I finished reading {title} by {author}.",
        "I read {title} {when}, couldn't put it down.",
        "{when} I got to the last page of {title}.",
    ),
    "hobby_change": (
        "{when} I took up {hobby}, and I'm done with {previous_hobby}.",
        "I've switched from {previous_hobby} to {hobby}; my first session was {when}.",
        "{when} I joined {club}, so {hobby} is my thing now.",
    ),
    "injury": (
        "{when} I got {injury} while {gerund}.",
        "I hurt myself {when}: {injury}, of all things.",
        "{when} I was {gerund} and ended up with {injury}; they patched me up at {clinic}.",
    ),
    "physio": (
        "{when} I finished physiotherapy for my {body_part}, after {sessions} sessions.",
        "My last physio appointment for the {body_part} was {when}. {therapist} signed me off.",
        "{when} {therapist} told me the physio on my {body_part} was done.",
    ),
    "checkup": (
        "{when} I had a health check-up at {clinic}.",
        "I went in for a check-up {when}; {doctor} saw me.",
        "{when} I had my check-up with {doctor} at {clinic}, and the result was {result}.",
    ),
    "vet_visit": (
        "{when} I took {pet_name} to the vet because of {issue}.",
        "{pet_name} had a vet appointment {when}. The bill was {vet_bill}.",
        "{when} I had to rush {pet_name} to the vet.",
    ),
    "book_trip": (
        "{when} I booked a trip to {destination}, for {price}.",
        "I've booked {destination}! I did it {when}, through {agency}.",
        "{when} I finally paid for a trip to {destination}.",
    ),
    "trip": (
        "{when} I got back from {destination} after {duration}.",
        "I went to {destination} {when}, with {companion}.",
        "{when} I travelled to {destination}, and the best part was {activity}.",
    ),
    "road_trip": (
        "{when} I drove to {destination} on a road trip.",
        "I did a road trip to {destination} {when}, {distance} in {car}.",
        "{when} I packed the car and drove all the way to {destination}.",
    ),
    "purchase": (
        "{when} I bought {colour_a} {model} {item}.",
        "I treated myself to a new {item} {when}: the {model}, in {colour}.",
        "{when} I finally got {item_a}, {model}, from {store}.",
    ),
    "car_breakdown": (
        "{when} {car_the} broke down on me.",
        "My car gave up {when}; {car_the} had to be towed to {garage}.",
        "{when} {car_the} died in the middle of the road, and the repair came to {repair_cost}.",
    ),
    "test_drive": (
        "{when} I test-drove {brand_a} at {dealership}.",
        "I took {brand_a} for a test drive {when}.",
        "{when} {dealership} let me drive {brand_a} around the block.",
    ),
    "car_purchase": (
        "{when} I bought {car}, and {previous_car_the} is gone.",
        "I've got a new car: {car}. I picked it up {when} for {price}.",
        "{when} I drove home in {car}.",
    ),
    "adopt_pet": (
        "{when} I adopted {breed_a} {species} named {pet_name}.",
        "Meet {pet_name}, my new {species}! I adopted {pet_name} {when}.",
        "{when} I brought home {pet_name}, {breed_a} {species}, from the shelter.",
    ),
    "volunteering": (
        "{when} I volunteered at {organisation}, {hours} in all.",
        "I spent a day helping out at {organisation} {when}.",
        "{when} I signed up to volunteer at {organisation}.",
    ),
    "admin_task": (
        "{when} I {task}, through {office}.",
        "I {task} {when}, finally.",
        "{when} I {task}, and the fee was {fee}.",
    ),
    "home_repair": (
        "{when} I got {repair} fixed.",
        "{plumber} came round {when} to fix {repair}.",
        "{when} I finally sorted out {repair}; it cost {cost}.",
    ),
    "joint_hike": (
        "{when} {other} and I went hiking at {place}.",
        "I did a hike at {place} with {other} {when}.",
    ),
    "joint_dinner": (
        "{when} {other} and I had a birthday dinner at {place}.",
        "We had a birthday dinner at {place} {when}, {other} and me.",
    ),
    "joint_concert": (
        "{when} {other} and I saw a show at {place}.",
        "I went to a show at {place} with {other} {when}.",
    ),
    "joint_weekend": (
        "{when} {other} and I spent a weekend in {place}.",
        "I spent a weekend in {place} with {other} {when}.",
    ),
}

#: What the interlocutor asks to get a slot the character has not told yet.
ASK: dict[str, tuple[str, ...]] = {
    "price": ("How much did that set you back?", "Was it expensive?", "Can I ask what you paid?"),
    "fee": ("What did it cost you?", "Was there a fee?"),
    "provider": ("Who runs it?", "Where are you doing it?"),
    "grade": ("How did you score?", "Did you do well on the final?"),
    "course": ("Remind me, which course was it?",),
    "employer": ("Where is that, by the way?",),
    "job_title": ("What's the role?", "What's your title there?"),
    "salary": ("Is the money better?", "Do they pay well?"),
    "previous_employer": ("Where were you before that?",),
    "raise": ("Did it come with more money?",),
    "conference_city": ("Where was it held?",),
    "topic": ("What was it about?",),
    "attendees": ("Was it a big crowd?", "How many people came?"),
    "city": ("Where did you end up?",),
    "previous_city": ("Where did you move from again?",),
    "rent": ("What's the rent like?", "Is the rent bad?"),
    "person": ("What's their name?",),
    "place": ("Where was that?", "Where did that happen?"),
    "restaurant": ("Where did you go?",),
    "dish": ("What did you eat?", "What did you order?"),
    "venue": ("Where was it?", "What was the venue like?"),
    "guests": ("How many people came?",),
    "band": ("Who was playing?",),
    "ticket_price": ("Were the tickets pricey?",),
    "distance": ("How long was the course?",),
    "finish_time": ("What was your time?", "How fast were you?"),
    "author": ("Who wrote it?",),
    "title": ("What was it called?",),
    "hobby": ("So what's the new thing?",),
    "previous_hobby": ("What are you giving up for it?",),
    "club": ("Did you join a group?",),
    "injury": ("What did you do to yourself?",),
    "activity": ("What were you doing?", "What did you get up to there?"),
    "clinic": ("Where did you go for it?",),
    "sessions": ("How many sessions did it take?",),
    "therapist": ("Who did you see?",),
    "body_part": ("Which bit was it for?",),
    "doctor": ("Who did you see?",),
    "result": ("And what did they find?", "Everything okay?"),
    "issue": ("What was wrong?", "Oh no, what happened?"),
    "vet_bill": ("Vets are so expensive. What was the bill?",),
    "destination": ("Where to?",),
    "agency": ("How did you book it?",),
    "duration": ("How long were you away?",),
    "companion": ("Who did you go with?", "Did you go alone?"),
    "car": ("Which car did you take?",),
    "item": ("What did you buy?",),
    "brand": ("What make is it?",),
    "model": ("Which model?",),
    "colour": ("What colour did you go for?",),
    "store": ("Where did you get it?",),
    "garage": ("Who's fixing it?", "Where is it now?"),
    "repair_cost": ("What's the damage?", "How much is the repair?"),
    "dealership": ("Where did you test it?",),
    "previous_car": ("What happens to the old one?",),
    "species": ("What kind of animal?",),
    "breed": ("What breed?",),
    "pet_name": ("What's its name?",),
    "adoption_fee": ("Was there an adoption fee?",),
    "organisation": ("Where was that?",),
    "hours": ("How much time did you put in?",),
    "task": ("What was it?",),
    "office": ("Who did you have to deal with?",),
    "repair": ("What broke?",),
    "cost": ("How much did it cost?", "Was it expensive?"),
    "plumber": ("Who fixed it?",),
    "with": ("Who was there?",),
    "relation": ("How do you two know each other again?",),
}

#: How the character states one slot (kind-specific first: ``kind:slot``).
SAY: dict[str, tuple[str, ...]] = {
    "price": ("It was {price}.", "{price}, if you can believe it.", "I paid {price}."),
    "book_trip:price": ("The whole package was {price}.", "It came to {price}."),
    "car_purchase:price": ("I paid {price} for it.", "It was {price}, after some haggling."),
    "fee": ("The fee was {fee}.", "They charged {fee}."),
    "provider": ("It's run by {provider}.", "I'm doing it with {provider}."),
    "grade": ("I got {grade} on the final.", "My score was {grade}."),
    "course": ("It was the {course} course.",),
    "employer": ("It's at {employer}.", "The company is {employer}."),
    "job_title": ("I'm {job_title_a} there.", "The title is {job_title}."),
    "salary": ("The salary is {salary} a year.", "They're paying {salary} a year."),
    "previous_employer": ("Before that I was at {previous_employer}.",),
    "raise": ("It came with {raise_a} raise.", "I got {raise_a} raise."),
    "conference_city": ("It was held in {conference_city}.", "They had it in {conference_city}."),
    "topic": ("The theme was {topic}.", "It was all about {topic}."),
    "attendees": ("There were about {attendees} people there.", "Roughly {attendees} people came."),
    "city": ("I'm in {city} now.",),
    "previous_city": (
        "I'd been in {previous_city} for years.",
        "Leaving {previous_city} was hard.",
    ),
    "rent": ("The rent is {rent} a month.", "I pay {rent} a month."),
    "person": ("Their name is {person}.", "It's {person}."),
    "place": ("It was at {place}.", "That was at {place}."),
    "engagement:place": ("We were in {place}.", "It happened in {place}."),
    "restaurant": ("We went to {restaurant}.", "We ate at {restaurant}."),
    "dish": ("I had the {dish}.", "I ordered the {dish}."),
    "venue": ("It was at {venue}.", "The venue was {venue}."),
    "guests": ("We had {guests} guests.", "There were {guests} guests."),
    "band": ("It was {band}.", "{band} were playing."),
    "ticket_price": ("The ticket was {ticket_price}.", "Tickets were {ticket_price}."),
    "distance": ("It was {distance_a} course.", "The distance was {distance}."),
    "finish_time": ("I finished in {finish_time}.", "My time was {finish_time}."),
    "title": ("The book was {title}.",),
    "author": ("It's by {author}.", "{author} wrote it."),
    "hobby": ("It's {hobby} now.",),
    "previous_hobby": ("I've given up {previous_hobby}.", "No more {previous_hobby} for me."),
    "club": ("I joined {club}.", "I'm a member of {club} now."),
    "injury": ("It's {injury}.", "The doctor said {injury}."),
    "injury:activity": ("I was {gerund} when it happened.", "It happened while I was {gerund}."),
    "trip:activity": ("The highlight was {activity}.", "We did {activity}, which was amazing."),
    "clinic": ("I went to {clinic}.", "They saw me at {clinic}."),
    "sessions": ("It took {sessions} sessions.", "I needed {sessions} sessions."),
    "therapist": ("I worked with {therapist}.", "My physio was {therapist}."),
    "body_part": ("It was for my {body_part}.",),
    "doctor": ("I saw {doctor}.", "{doctor} did the check."),
    "result": ("The result was {result}.", "They found {result}."),
    "issue": ("It was {issue}.", "Turned out to be {issue}."),
    "vet_bill": ("The vet bill was {vet_bill}.", "It cost {vet_bill} at the vet."),
    "pet_name": ("It's {pet_name}.",),
    "destination": ("We went to {destination}.", "It was {destination}."),
    "agency": ("I booked it through {agency}.", "I found it via {agency}."),
    "duration": ("I was away {duration}.", "The trip lasted {duration}."),
    "companion": ("I went with {companion}.",),
    "car": ("I took {car}.", "We went in {car}."),
    "car_breakdown:car": ("It's {car}, the one I've had for years.",),
    "item": ("It's {item_a}.",),
    "brand": ("It's {brand_a}.", "I went with {brand}."),
    "model": ("It's the {model}.",),
    "colour": ("It's {colour}.", "I picked {colour}."),
    "store": ("I got it at {store}.", "I bought it from {store}."),
    "garage": ("It's at {garage}.", "{garage} took it in."),
    "repair_cost": ("The repair came to {repair_cost}.", "They quoted {repair_cost}."),
    "dealership": ("It was at {dealership}.", "{dealership} let me try it."),
    "previous_car": ("It replaced {previous_car}.", "Goodbye to {previous_car}."),
    "species": ("It's {species_a}.",),
    "breed": ("The breed is {breed}.", "{breed_cap}, to be exact."),
    "adoption_fee": ("The adoption fee was {adoption_fee}.", "Adoption cost {adoption_fee}."),
    "organisation": ("It was at {organisation}.", "I helped out at {organisation}."),
    "hours": ("I put in {hours}.", "About {hours} altogether."),
    "task": ("I {task}.",),
    "office": ("I had to deal with {office}.", "It went through {office}."),
    "repair": ("It was {repair}.",),
    "cost": ("It cost {cost}.", "The bill was {cost}."),
    "plumber": ("{plumber} came over.", "I called {plumber}."),
    "with": ("Just me and {with}.",),
    "relation": ("We're {relation_pl}, you know.",),
}

#: How the character refers back to an event (coreference in answers, causes in openers).
REF: dict[str, str] = {
    "course_enrol": "the {course} course",
    "certification": "the {course} certificate",
    "job_change": "the new job at {employer}",
    "promotion": "the promotion at {employer}",
    "conference": "the {topic} conference",
    "move": "the move to {city}",
    "met_someone": "meeting {person}",
    "first_date": "the first date with {person}",
    "start_dating": "getting together with {partner}",
    "engagement": "the engagement in {place}",
    "wedding": "the wedding at {venue}",
    "concert": "the {band} gig",
    "race": "the {distance} race",
    "book": "{title}",
    "hobby_change": "taking up {hobby}",
    "injury": "{injury}",
    "physio": "the physio on my {body_part}",
    "checkup": "the check-up at {clinic}",
    "vet_visit": "{pet_name}'s vet visit",
    "book_trip": "the booking for {destination}",
    "trip": "the trip to {destination}",
    "road_trip": "the road trip to {destination}",
    "purchase": "the {item}",
    "car_breakdown": "the breakdown of {car_the}",
    "test_drive": "the test drive at {dealership}",
    "car_purchase": "buying {car}",
    "adopt_pet": "adopting {pet_name}",
    "volunteering": "the volunteering at {organisation}",
    "admin_task": "the paperwork with {office}",
    "home_repair": "fixing {repair}",
}

#: How news of each kind lands (the interlocutor's reaction, the tone of a callback); kinds not
#: named here are neutral news, which only neutral reactions fit.
MOOD: dict[str, str] = {
    **dict.fromkeys(
        ("certification", "job_change", "promotion", "met_someone", "first_date", "start_dating",
         "engagement", "wedding", "concert", "race", "trip", "road_trip", "book_trip",
         "car_purchase", "adopt_pet", "volunteering", "course_enrol", "hobby_change", "purchase",
         "conference", "joint_hike", "joint_dinner", "joint_concert", "joint_weekend"),
        "good",
    ),
    **dict.fromkeys(("breakup", "injury", "physio", "vet_visit", "car_breakdown", "home_repair"),
                    "bad"),
}  # fmt: skip


def mood_of(kind: str) -> str:
    """How news of ``kind`` lands: ``good``, ``bad`` or ``neutral``."""
    return MOOD.get(kind, "neutral")


def reactions(kind: str) -> tuple[str, ...]:
    """The reactions that fit news of ``kind``: the neutral ones and those of its mood."""
    mood = mood_of(kind)
    neutral = P.REACTIONS["neutral"]
    return neutral if mood == "neutral" else neutral + P.REACTIONS[mood]


#: How the character names an earlier event by its kind alone, with its month when one is needed
#: (``{time}``: `` in March``, or nothing), as people refer back to things a listener already
#: knows. None states a slot value, so a reader resolves them from the earlier sessions; their
#: words are none of the summaries' or the questions' (``booked``, ``trip``, ``injury``), so
#: matching words with the event's telling or the question does not.
KIND_REF: dict[str, tuple[str, ...]] = {
    "course_enrol": ("those classes{time}", "signing up for classes{time}"),
    "certification": ("qualifying{time}", "passing that final assessment{time}"),
    "job_change": ("changing jobs{time}", "the job switch{time}"),
    "promotion": ("moving up at work{time}", "that step up at work{time}"),
    "conference": ("that industry event{time}", "those talks I went to{time}"),
    "move": ("moving house{time}", "relocating{time}"),
    "met_someone": ("that chance encounter{time}", "bumping into each other{time}"),
    "first_date": ("our evening out{time}", "that dinner date{time}"),
    "start_dating": ("us getting together{time}", "making it official{time}"),
    "engagement": ("the proposal{time}", "saying yes{time}"),
    "wedding": ("the big day{time}",),
    "breakup": ("the split{time}",),
    "concert": ("that gig{time}",),
    "race": ("crossing that finish line{time}", "the race{time}"),
    "book": ("that book I read{time}",),
    "hobby_change": ("the new hobby{time}",),
    "injury": ("getting hurt{time}", "my accident{time}"),
    "physio": ("all that rehab{time}", "finishing rehab{time}"),
    "checkup": ("that doctor's appointment{time}", "seeing the doctor{time}"),
    "vet_visit": ("that vet appointment{time}",),
    "book_trip": ("paying for that holiday{time}", "sorting out the holiday{time}"),
    "trip": ("that holiday{time}", "my time away{time}", "being away{time}"),
    "road_trip": ("that long drive{time}",),
    "purchase": ("that splurge{time}", "what I treated myself to{time}"),
    "car_breakdown": ("the old motor giving up{time}", "being stranded by the roadside{time}"),
    "test_drive": ("that spin at the dealer's{time}", "trying cars out at the dealer's{time}"),
    "car_purchase": ("buying the car{time}", "the car I picked up{time}"),
    "adopt_pet": ("the adoption{time}", "bringing my little one home{time}"),
    "volunteering": ("helping out{time}", "lending a hand{time}"),
    "admin_task": ("that paperwork{time}",),
    "home_repair": ("the repairs{time}",),
}

#: Kinds whose :data:`KIND_REF` a listener could take for one another ("that holiday" may be a
#: road trip, "that splurge" a car): a kind reference must be the only one of its group that
#: month. Kinds not listed are a group of their own.
CONFUSABLE: tuple[frozenset[str], ...] = (
    frozenset(("trip", "road_trip", "joint_weekend")),
    frozenset(("purchase", "car_purchase")),
    frozenset(("concert", "joint_concert")),
    frozenset(("job_change", "promotion")),
)


def ref_group(kind: str) -> frozenset[str]:
    """The kinds a kind reference to ``kind`` could be taken for (``kind`` itself included)."""
    return next((g for g in CONFUSABLE if kind in g), frozenset((kind,)))


#: A sentence tying an event to the one that led to it, by the mood of the event told (``any``
#: fits every mood): ``{cause}`` is a reference to the cause, ``{Cause}`` the same capitalised.
#: Chosen whole, never word-varied, so the audit's cue list (``umb.audit._cues``) can name them.
LINKS: dict[str, tuple[str, ...]] = {
    "any": (
        "It all started with {cause}, really.",
        "It goes back to {cause}, really.",
        "That's all down to {cause}, if I'm honest.",
        "It follows on from {cause}.",
        "I suppose it all comes from {cause}.",
        "It wouldn't have happened without {cause}.",
        "{Cause} is what set it off.",
    ),
    "good": (
        "You can thank {cause} for that.",
        "{Cause} paid off, in a way.",
        "I'd never have done it without {cause}.",
        "It's been on my mind ever since {cause}.",
    ),
    "bad": (
        "Blame {cause} for that.",
        "It's been one thing after another since {cause}.",
    ),
}

#: The friend guessing the cause instead (a question right after the news), and the
#: character's confirmation (each opens with a word and a comma, which the voice leaves alone).
ASK_LINKS = (
    "Is that because of {cause}?",
    "Was it {cause} that started all this?",
    "Did {cause} have something to do with it?",
    "Has this got anything to do with {cause}?",
    "Is that thanks to {cause}?",
)
CONFIRMS = (
    "Yes, that's where it all started.",
    "Exactly, yes.",
    "Yes, you remember!",
    "Yeah, pretty much.",
    "Oh, spot on.",
    "Yeah, that was the start of it.",
)
