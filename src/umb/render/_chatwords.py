"""Word banks for small talk: people, things, places, foods, shows, comments (see ``_chat``).

Small talk is composed from these parts, so a long dialogue rarely says the same sentence twice.
Nothing here names a world value that questions ask about (no prices, dates or slot values).
"""

from __future__ import annotations

KIN = (
    "cousin", "neighbour", "sister", "brother", "aunt", "uncle", "flatmate", "colleague",
    "landlord", "barber", "niece", "nephew", "godmother", "grandad", "grandmother", "boss",
    "dentist", "hairdresser", "stepdad", "goddaughter", "classmate", "teammate", "ex",
    "manager", "mechanic", "postman", "babysitter", "tutor", "trainer", "roommate",
)  # fmt: skip
#: A gendered relation of :data:`KIN` -> (its gender, the same relation of the other gender):
#: a named relative takes the word of the name's gender ("my brother Marco", never "my sister
#: Marco").
GENDERED_KIN: dict[str, tuple[str, str]] = {
    "sister": ("female", "brother"), "brother": ("male", "sister"),
    "aunt": ("female", "uncle"), "uncle": ("male", "aunt"),
    "niece": ("female", "nephew"), "nephew": ("male", "niece"),
    "godmother": ("female", "godfather"), "grandmother": ("female", "grandad"),
    "grandad": ("male", "grandmother"), "stepdad": ("male", "stepmum"),
    "goddaughter": ("female", "godson"), "postman": ("male", "postwoman"),
    "landlord": ("male", "landlady"),
}  # fmt: skip

ADJ = (
    "tiny", "enormous", "chipped", "ancient", "shiny", "lopsided", "suspicious", "glorious",
    "wobbly", "second-hand", "hand-painted", "ridiculous", "perfectly fine", "slightly burnt",
    "oversized", "mysterious", "half-broken", "brand-new", "dusty", "fluorescent", "velvet",
    "hideous", "beautiful", "noisy", "waterproof", "foldable", "vintage", "plastic", "ceramic",
    "wooden", "hand-knitted", "sticky", "fancy", "cheap", "heavy", "squeaky", "stripy",
    "enamel", "cracked", "mismatched", "homemade", "inflatable", "solar-powered", "glittery",
)  # fmt: skip

THING = (
    "teapot", "lamp", "umbrella", "armchair", "toaster", "mirror", "rug", "houseplant",
    "kettle", "bookshelf", "bicycle bell", "jigsaw puzzle", "fruit bowl", "alarm clock",
    "picture frame", "coat rack", "watering can", "biscuit tin", "record player", "garden gnome",
    "desk chair", "flask", "frying pan", "backpack", "scarf", "pair of boots", "board game",
    "tablecloth", "vase", "fan", "blender", "hammock", "birdhouse", "cookbook", "calendar",
    "candle", "doormat", "lunchbox", "suitcase", "cushion", "sewing kit", "radio", "notebook",
    "paint set", "telescope", "stool", "rice cooker", "bread tin", "wind chime", "deck chair",
)  # fmt: skip

SPOT = (
    "café", "flea market", "bakery", "bookshop", "charity shop", "noodle bar", "farmers' market",
    "garden centre", "hardware store", "cinema", "pub quiz", "laundrette", "bus stop", "library",
    "swimming pool", "allotment", "car boot sale", "pop-up gallery", "food truck", "street fair",
    "record shop", "corner shop", "ice-cream van", "bowling alley", "train station", "playground",
    "community hall", "night bus", "karaoke bar", "repair café",
)  # fmt: skip

LANDMARK = (
    "the station", "the old church", "the canal", "the roundabout", "the river", "the hospital",
    "the big supermarket", "the town hall", "the viaduct", "the football ground", "the harbour",
    "the park gates", "the motorway", "the cathedral", "the retail park", "the tram depot",
    "the primary school", "the water tower", "the clock tower", "my old office",
)  # fmt: skip

PLACE_SHAPE = ("a {adj} {spot} near {landmark}", "the {spot} behind {landmark}",
               "a {spot} just past {landmark}", "that {adj} {spot} by {landmark}",
               "the new {spot} opposite {landmark}")  # fmt: skip

FOOD = (
    "lentil soup", "banana bread", "a spicy noodle thing", "fish tacos", "mushroom pie",
    "a very sad salad", "cold pizza", "pancakes", "chickpea curry", "leek and potato soup",
    "lemon drizzle cake", "an enormous burrito", "roast vegetables", "dumplings", "shepherd's pie",
    "a cheese toastie", "sushi from the supermarket", "chilli", "apple crumble", "falafel wraps",
    "porridge with far too much honey", "a stir-fry", "beans on toast", "gazpacho", "flapjacks",
    "cinnamon buns", "a lasagne the size of a door", "paneer wraps", "carrot cake",
    "miso soup",
)  # fmt: skip

GENRE = (
    "true-crime", "cooking", "nature", "history", "sci-fi", "comedy", "home-makeover",
    "detective", "sports", "quiz", "travel", "music", "fantasy", "baking", "space",
)  # fmt: skip
FORMAT = ("series", "podcast", "documentary", "film", "audiobook", "radio drama", "show")
SUBJECT = (
    "lighthouse keepers", "competitive gardening", "deep-sea fish", "a heist that went wrong",
    "medieval cooks", "two rival bakers", "the history of bicycles", "a haunted hotel",
    "Arctic explorers", "a small-town mayor", "beekeeping", "the first moon landing",
    "a family of otters", "forgotten inventors", "a chess prodigy", "the London sewers",
    "volcanoes", "a runaway train", "fungi", "a choir of retired sailors", "ancient board games",
    "a detective who hates crime", "the hunt for a stolen painting", "penguins", "tea clippers",
)  # fmt: skip

SKILL = (
    "juggle", "fold origami cranes", "make proper gravy", "whistle with two fingers",
    "change a bike tyre", "knit a sock", "solve a cryptic crossword", "bake flatbread",
    "play three chords on the ukulele", "tell mushrooms apart", "sharpen a kitchen knife",
    "do a handstand", "read a bus timetable", "fix a dripping tap", "draw a decent cat",
    "make dumplings from scratch", "repot an orchid", "skim stones", "say hello in Finnish",
    "tie a bowline knot", "bleed a radiator", "brew kombucha",
)  # fmt: skip

WEATHER_WHAT = (
    "the rain",
    "the wind",
    "the fog",
    "a storm",
    "the heat",
    "the frost",
    "the drizzle",
    "the hail",
    "the snow",
    "the damp",
    "the cold snap",
    "the humidity",
)
WEATHER_DID = (
    "came in sideways",
    "never stopped",
    "knocked the power out",
    "ruined my plans",
    "flooded the road",
    "rattled the windows",
    "kept everyone indoors",
    "melted everything",
    "froze the pipes",
    "soaked my shoes",
    "took my hat",
    "lasted all day",
    "turned the garden into a pond",
    "made the buses late",
)

COMMENT = (
    "which I did not see coming", "and I'm still not sure how I feel about it",
    "which made my whole week", "and now I can't stop thinking about it",
    "and honestly it was the highlight of my week", "which is very on brand for me",
    "and nobody warned me", "which sounds silly when I say it out loud",
    "and I regret nothing", "and I've told everyone about it since",
    "which was either genius or a mistake", "and it somehow took all afternoon",
    "and I laughed the whole way home", "which I'm counting as exercise",
    "and I'm pretending that was the plan all along", "and it has become a small obsession",
    "which was more fun than it had any right to be", "and I think it went rather well",
    "and of course it started raining halfway through", "which my mother found hilarious",
)  # fmt: skip

WHEN_VAGUE = (
    "Recently", "Lately", "Once", "Anyway", "So", "Oh", "Well", "Meanwhile", "Also",
    "Somehow", "Apparently", "Guess what,", "Right,", "Okay,",
)  # fmt: skip

FEELING = (
    "a bit tired", "weirdly energetic", "pretty content", "slightly frazzled", "calm, mostly",
    "all over the place", "better than I expected", "ready for a holiday", "surprisingly good",
    "like I need a nap", "quite cheerful", "restless",
)  # fmt: skip

REACT = (
    "Ha, that's brilliant.", "Oh, I love that.", "That's so you.", "Honestly, same.",
    "No way.", "That's wonderful.", "Oh dear.", "I can picture it perfectly.",
    "That made me laugh.", "You always find the strangest things.", "That sounds about right.",
    "I'm a little jealous.", "Good for you.", "Classic.", "That's the best kind of week.",
    "Oh, that's lovely.", "Well, that's one way to spend a day.", "I would have done the same.",
)  # fmt: skip

FOLLOW = (
    "Are you going to keep it?", "Would you go back?", "Did anyone else notice?",
    "What did you do next?", "How did that even happen?", "Was it worth it in the end?",
    "Did you tell anyone?", "Are you going to do it again?", "What did everyone else think?",
    "Do you think it'll last?", "Did you get a photo?", "How long did that take?",
    "Were you surprised?", "Is that a new habit, then?",
)  # fmt: skip

CODA = (
    "Probably, yes.", "I think so, if I'm honest.", "Ask me again next week.",
    "Nobody believed me at first.", "I'll let you know how it goes.", "Only time will tell.",
    "Not yet, but I'm working on it.", "It's become a bit of a running joke.",
    "We'll see, won't we.", "I really hope so.", "Not a chance.", "It's a long story, honestly.",
)  # fmt: skip

#: Past-tense verbs that take a thing as object ("I ___ a wobbly lamp").
THING_VERBS = (
    "bought", "found", "borrowed", "fixed", "lost", "broke", "painted", "returned", "sold",
    "ordered", "assembled", "wrapped up", "dropped", "cleaned", "rescued", "inherited", "won",
    "swapped", "spotted", "photographed", "carried home", "hid", "dusted off", "glued together",
    "polished", "unpacked", "donated", "labelled", "sketched", "priced up", "dug out",
    "tracked down", "picked up", "gave away", "threw out", "brought home", "haggled for",
    "queued for", "argued over", "tripped over", "knocked over", "lent out", "raffled off",
    "upcycled", "sanded down", "reupholstered", "tested", "regretted buying", "fell in love with",
    "walked past", "almost bought", "mended", "rewired", "repotted", "varnished", "weighed",
)  # fmt: skip

SHOW_VERBS = (
    "watched", "binged", "started", "finished", "rewatched", "abandoned", "fell asleep during",
    "cried at", "argued about", "recommended", "quoted", "sat through", "got hooked on",
    "laughed all the way through", "paused halfway through", "kept thinking about",
)  # fmt: skip

FOOD_VERBS = (
    "made", "burnt", "ordered", "cooked", "tried", "shared", "attempted", "devoured",
    "overcooked", "perfected", "invented", "reheated", "took round", "packed", "froze",
)  # fmt: skip

PREPS = ("at", "near", "outside", "from", "behind", "by", "opposite", "beside", "inside", "in")
GROUPS = (
    "the office", "upstairs", "downstairs", "yoga", "choir", "football", "school", "church",
    "college", "Pilates", "karate", "swimming", "netball", "chess club", "rowing",
)  # fmt: skip

#: Interjections by the mood of the verdict they open ("Ooh, perfect!", "Oof, brutal!").
INTERJS: dict[str, tuple[str, ...]] = {
    "neutral": ("Ha", "Oh", "Honestly", "Okay", "Wait", "Right", "Huh", "Well", "Hm", "Well then",
                "Oh wow"),
    "good": ("Ha", "Oh", "Wow", "Ooh", "Oh my", "Okay", "Yay", "Whoa", "Oh nice"),
    "bad": ("Oh", "Aw", "Ugh", "Oof", "Oh dear", "Honestly", "Oh no", "Yikes", "Blimey"),
}  # fmt: skip
INTERJ = tuple(dict.fromkeys(INTERJS["neutral"] + INTERJS["good"] + INTERJS["bad"]))
#: One-word verdicts on a story, by the mood they fit (``_kindtalk.MOOD``).
VERDICTS: dict[str, tuple[str, ...]] = {
    "neutral": ("classic", "typical", "unbelievable", "bizarre", "ridiculous", "chaotic",
                "very you", "fair enough", "so weird", "wild", "peak you", "of course", "textbook",
                "no surprise there", "very on brand", "unexpected", "who knew"),
    "good": ("amazing", "brilliant", "adorable", "legendary", "iconic", "impressive",
             "hilarious", "perfect", "inspired", "love it", "genius", "lovely", "spot on",
             "gorgeous", "top marks"),
    "bad": ("tragic", "ouch", "rotten luck", "what a pain", "poor you", "brutal", "nightmare",
            "grim", "harsh", "unlucky", "not ideal", "awful"),
}  # fmt: skip
ASK_ABOUT = (
    "What did {name} make of the {noun}?", "Where's the {noun} going to live?",
    "Is the {noun} still in one piece?", "Did you keep the {noun}?", "Why {noun_a}, though?",
    "Was the {noun} worth it?", "Who gets the {noun}?", "Do you need {noun_a}?",
    "Was {name} there?", "How's {name}, by the way?", "Does {name} know?", "And {name}?",
    "Is {name} still cross?", "Photos of the {noun}, please?", "Will {name} forgive you?",
    "Did {name} laugh?", "Does the {noun} have a name?", "Can I borrow the {noun}?",
)  # fmt: skip
SHORT_ANSWER = (
    "Probably", "Honestly, no idea", "Not yet", "Sort of", "Yes, obviously", "Ask {name}",
    "Long story", "Don't laugh", "Now that you mention it", "Only just", "In theory",
    "Absolutely not", "We'll see",
)  # fmt: skip

ASK_BACK = (
    "You?", "And you?", "Your turn.", "What about you?", "Anything on your side?",
    "How about yours?", "Same with you?",
)  # fmt: skip

ADVERBS = (
    "finally", "accidentally", "reluctantly", "proudly", "secretly", "happily", "nervously",
    "stubbornly", "heroically", "briefly", "carefully", "clumsily", "eagerly", "boldly",
    "quietly", "cheerfully", "somehow", "impulsively", "patiently", "gleefully", "foolishly",
    "bravely", "lazily", "slowly", "hastily", "grudgingly", "dutifully", "shamelessly",
    "triumphantly", "sheepishly", "absent-mindedly", "valiantly", "wisely", "cautiously",
)  # fmt: skip
STREETS = ("Street", "Road", "Lane", "Avenue", "Row", "Hill", "Square", "Parade", "Close", "Way")

MORE_ADJ = (
    "battered", "gleaming", "rusty", "crooked", "spotty", "tartan", "neon", "pastel",
    "chunky", "flimsy", "sturdy", "elegant", "tacky", "quirky", "faded", "sun-bleached",
    "dented", "delicate", "massive", "miniature", "wonky", "yellow", "lime",
    "bronze", "marble", "wicker", "rattan", "leather", "copper", "glass", "tin", "knitted",
    "patchwork", "painted", "carved", "spotless", "grubby", "rickety", "retro", "futuristic",
    "mouldy", "fragrant", "peculiar", "magnificent", "forgettable", "adorable", "gloomy",
)  # fmt: skip
MORE_THING = (
    "pogo stick", "accordion", "lava lamp", "typewriter", "tea towel", "ironing board",
    "bird feeder", "hula hoop", "trombone", "snow globe", "cuckoo clock", "egg timer",
    "fondue set", "chess set", "globe", "cactus", "bonsai tree", "sun hat", "raincoat",
    "bread maker", "waffle iron", "dartboard", "kite", "skateboard", "ukulele", "walking stick",
    "map of the Alps", "jar of pickles", "crate of apples", "box of old letters", "plant stand",
    "paperweight", "mug tree", "trivet", "lantern", "fishing rod", "tennis racket", "thermos",
    "hat stand", "step ladder", "bath mat", "oil painting", "clay pot", "hourglass",
)  # fmt: skip
MORE_SPOT = (
    "antique shop", "bike shop", "fishmonger", "deli", "pottery studio", "sauna", "ferry",
    "laundromat", "garden party", "jumble sale", "village fête", "night market", "chip shop",
    "dance hall", "gallery opening", "book swap", "barbecue", "tram stop", "museum café",
    "botanical garden", "toy shop", "yoga studio", "launderette", "tea room", "ice rink",
)  # fmt: skip
GATHER_VERBS = (
    "went", "wandered", "cycled", "drove", "walked", "dashed", "strolled", "hurried", "trekked",
    "popped", "sneaked", "limped", "jogged", "ventured",
)  # fmt: skip
COMPANY = (
    "my cousin",
    "the kids",
    "my sister",
    "a neighbour",
    "the dog",
    "my dad",
    "my mum",
    "two friends",
    "my flatmate",
    "nobody",
    "everyone",
    "my nan",
    "the twins",
)
PASTIMES = (
    "repainting a bench", "sorting old photos", "learning a card trick", "building a bookshelf",
    "untangling fairy lights", "making jam", "teaching the cat to sit", "re-reading old diaries",
    "planting bulbs", "fixing a puncture", "pressing flowers", "baking for a bake sale",
    "writing letters", "sewing patches on a jacket", "clearing out the shed", "bleaching grout",
    "practising scales", "organising spice jars", "weeding the path", "painting pebbles",
)  # fmt: skip
STRETCHES = (
    "Saturday", "Sunday", "yesterday evening", "all afternoon", "all evening", "the morning",
    "hours", "ages", "the weekend", "Tuesday night", "lunchtime", "Friday", "Wednesday",
)  # fmt: skip
TOPICS = (
    "the best biscuit", "whether cats can count", "pineapple on pizza", "the rules of darts",
    "who invented the sandwich", "the correct way to load a dishwasher", "ghosts",
    "the perfect cup of tea", "how to pronounce scone", "the best decade for music",
    "whether a hot dog is a sandwich", "tidal power", "the offside rule", "the ideal picnic",
    "the worst film ever made", "jam before cream", "how many hats is too many",
)  # fmt: skip

MORE_SUBJECT = (
    "a lost dog that walked home", "urban foxes", "the invention of glue", "a pirate queen",
    "pencil factories", "a cursed violin", "the world's oldest tree", "ice hotels",
    "competitive knitting", "a marathon in the desert", "robot vacuum cleaners", "jellyfish",
    "a stolen racehorse", "bridge engineers", "the history of salt", "a village with no cars",
    "a spy who loves crosswords", "mushroom foragers", "a ghost ship", "underground rivers",
    "sheepdog trials", "a lighthouse on fire", "the first vending machine", "hermit crabs",
    "a pie-eating contest", "Victorian plumbers", "cloud spotters", "a lonely whale",
)  # fmt: skip
MORE_TOPICS = (
    "the best crisp flavour", "whether fish sleep", "the tidiest way to fold a map",
    "the right temperature for a bath", "who should do the washing-up", "moon landings",
    "the best bus route in town", "whether pigeons are clever", "socks with sandals",
    "the rules of Monopoly", "naming houseplants", "the best season", "breakfast for dinner",
    "ketchup in the fridge", "the tallest building in Europe", "how long to boil an egg",
    "whether toast should be cut diagonally", "the worst chore", "the best sandwich filling",
)  # fmt: skip
MORE_PASTIMES = (
    "grouting the bathroom", "hanging pictures", "labelling the freezer", "racing snails",
    "building a birdhouse", "repairing a kite", "reading tarot cards", "oiling the hinges",
    "learning to whistle", "decorating biscuits", "restringing a guitar", "folding napkins",
    "sorting buttons", "counting seagulls", "assembling flat-pack furniture",
)  # fmt: skip
MORE_FOOD = (
    "stuffed peppers", "a tray of brownies", "risotto that went wrong", "bubble and squeak",
    "peanut noodles", "a huge pot of dal", "fried rice", "scones", "a quiche", "onion bhajis",
    "chocolate mousse", "a fish pie", "gingerbread", "tomato soup", "a Sunday roast",
    "potato cakes", "a trifle", "spring rolls", "a smoothie nobody liked", "cheese scones",
)  # fmt: skip

MORE_THING_VERBS = (
    "framed", "stitched", "hoovered", "balanced", "juggled", "sniffed", "auctioned",
    "measured", "catalogued", "decorated", "disguised", "misplaced", "rearranged", "insured",
    "returned", "smuggled home", "stacked", "rescued", "bartered for", "inspected", "ironed",
    "defrosted", "charmed", "photobombed", "untangled", "mislabelled", "reclaimed",
    "shrink-wrapped",
)  # fmt: skip
MORE_ADVERBS = (
    "gingerly", "wistfully", "grandly", "dramatically", "casually", "smugly", "politely",
    "randomly", "suddenly", "merrily", "thoughtfully", "frantically", "bashfully", "deftly",
)  # fmt: skip

# The pools the composer draws from, joined once.
ALL_ADJ = ADJ + MORE_ADJ
ALL_THING = THING + MORE_THING
ALL_SPOT = SPOT + MORE_SPOT
ALL_ADVERBS = ADVERBS + MORE_ADVERBS
ALL_THING_VERBS = THING_VERBS + MORE_THING_VERBS
ALL_SUBJECT = SUBJECT + MORE_SUBJECT
ALL_TOPICS = TOPICS + MORE_TOPICS
ALL_PASTIMES = PASTIMES + MORE_PASTIMES
ALL_FOOD = FOOD + MORE_FOOD
