"""Word lists the simulator draws names, places and things from."""

from __future__ import annotations

FIRST_NAMES = {
    "female": (
        "Maya Ava Nora Lena Zoe Iris Clara Hana Priya Sofia Elena Mira Jade Leila Naomi Ruth "
        "Alice Grace Ella Julia Chloe Emma Yara Aisha Mei Tara Ines Lucia Freya Amara Esme Dina "
        "Keiko Rosa Nadia Vera Tessa Lila Fiona Greta Olive Hazel Maren Selin Anouk Bea Carmen "
        "Daria Elif Farah Gwen Hallie Ilse Juno Kira Lotte Mila Nell Opal Pia Quinn Rhea Sana"
    ).split(),
    "male": (
        "Liam Noah Omar Ethan Lucas Mateo Arjun Kenji Leo Hugo Felix Adam Ravi Diego Samir Theo "
        "Jonas Elias Marco Ivan Tomas Kofi Yusuf Daniel Oscar Milo Rafael Anton Bruno Caleb Dev "
        "Emil Finn Gabe Hamza Isak Jasper Karim Lars Malik Nico Otto Pavel Rohan Silas Tariq "
        "Umar Victor Wes Xavier Yann Zane Abel Boris Cyrus Dario Eero Farid Gideon Henrik Idris"
    ).split(),
}

LAST_NAMES = (
    "Chen Patel Garcia Novak Okafor Kim Silva Moreau Rossi Nguyen Haddad Larsen Costa Ivanova "
    "Tanaka Brennan Fischer Mendes Kowalski Andersen Reyes Sato Dubois Ahmed Lindqvist Moretti "
    "Horvat Bauer Oduya Quinn Varga Takahashi Romero Weber Petrov Alvarez Nakamura Jensen Ortiz "
    "Ferrari Eriksen Kaur Walsh Sousa Yilmaz Becker Castro Lund Ali Murphy Dalton Ibarra Keller "
    "Lopez Marsh Nilsen Park Ramos Shah Toure Umeh Vance Wolfe Young Zhou Abbott Blake Cruz"
).split()

CITIES = (
    "Denver Seattle Austin Boston Chicago Portland Toronto Vancouver Dublin Lisbon Madrid Berlin "
    "Amsterdam Copenhagen Oslo Vienna Prague Munich Lyon Milan Edinburgh Manchester Melbourne "
    "Auckland Singapore Osaka Montreal Minneapolis Atlanta Phoenix Pittsburgh Rotterdam"
).split()

OCCUPATIONS = (
    "software engineer",
    "nurse",
    "high-school teacher",
    "graphic designer",
    "accountant",
    "marketing analyst",
    "civil engineer",
    "pharmacist",
    "data analyst",
    "architect",
    "physiotherapist",
    "chef",
    "journalist",
    "lab technician",
    "product manager",
    "paralegal",
    "electrician",
    "UX researcher",
    "veterinary nurse",
    "logistics coordinator",
)

EMPLOYERS = (
    "Northwind Analytics",
    "Bluefin Logistics",
    "Cedar Health",
    "Pinecrest Studio",
    "Harbor Bank",
    "Lumen Labs",
    "Quarry Foods",
    "Atlas Engineering",
    "Meridian Media",
    "Brightpath Schools",
    "Orchard Pharma",
    "Summit Architects",
    "Tidewater Energy",
    "Kestrel Software",
    "Maple Clinic",
    "Ironbridge Consulting",
    "Sparrow Retail",
    "Granite Insurance",
    "Willow Design",
    "Copperleaf Hotels",
    "Redwood Robotics",
    "Silverline Transit",
    "Foxglove Publishing",
    "Beacon Biotech",
)

JOB_TITLES = {
    "junior": ("junior analyst", "assistant designer", "associate engineer", "trainee nurse"),
    "senior": ("senior analyst", "lead designer", "senior engineer", "charge nurse"),
    "manager": ("team lead", "operations manager", "project manager", "head of design"),
}

MBTI = tuple(a + b + c + d for a in "EI" for b in "SN" for c in "TF" for d in "JP")

CAR_BRANDS = {
    "Toyota": ("Corolla", "RAV4", "Prius", "Yaris"),
    "Honda": ("Civic", "CR-V", "Jazz", "Accord"),
    "Volkswagen": ("Golf", "Polo", "Tiguan", "ID.3"),
    "Ford": ("Focus", "Fiesta", "Kuga", "Puma"),
    "Subaru": ("Outback", "Impreza", "Forester", "Crosstrek"),
    "Kia": ("Niro", "Ceed", "Sportage", "Picanto"),
    "Mazda": ("Mazda3", "CX-5", "MX-5", "CX-30"),
    "Tesla": ("Model 3", "Model Y"),
}

COLOURS = (
    "red",
    "blue",
    "silver",
    "black",
    "white",
    "green",
    "grey",
    "yellow",
    "navy",
    "burgundy",
    "teal",
    "orange",
)

GADGETS = {
    "laptop": (
        ("Lenovo", "ThinkPad X1"),
        ("Apple", "MacBook Air"),
        ("Dell", "XPS 13"),
        ("Asus", "Zenbook 14"),
        ("HP", "Spectre x360"),
        ("Framework", "Laptop 13"),
    ),
    "phone": (
        ("Apple", "iPhone 13"),
        ("Samsung", "Galaxy S22"),
        ("Google", "Pixel 7"),
        ("Fairphone", "Fairphone 4"),
        ("OnePlus", "OnePlus 10"),
    ),
    "bike": (
        ("Trek", "FX 3"),
        ("Canyon", "Grail 6"),
        ("Brompton", "C Line"),
        ("Specialized", "Sirrus X"),
        ("Giant", "Escape 2"),
    ),
    "camera": (
        ("Fujifilm", "X-T30"),
        ("Sony", "a6400"),
        ("Canon", "EOS R10"),
        ("Nikon", "Z50"),
        ("Olympus", "OM-D E-M10"),
    ),
    "headphones": (
        ("Sony", "WH-1000XM4"),
        ("Bose", "QC45"),
        ("Sennheiser", "Momentum 4"),
        ("Apple", "AirPods Max"),
    ),
}

STORES = (
    "the Best Buy on Main Street",
    "a small shop downtown",
    "the outlet mall",
    "an online store",
    "a second-hand market",
    "the store near the station",
    "a department store",
)

PET_SPECIES = {
    "dog": ("beagle", "golden retriever", "border collie", "corgi", "dachshund", "labrador"),
    "cat": ("tabby", "Maine Coon", "Siamese", "ragdoll", "black shorthair"),
    "rabbit": ("lop-eared", "Dutch", "lionhead"),
}

PET_NAMES = (
    "Biscuit",
    "Pepper",
    "Mochi",
    "Juniper",
    "Olive",
    "Waffles",
    "Pixel",
    "Clementine",
    "Ziggy",
    "Maple",
    "Nacho",
    "Luna",
    "Tofu",
    "Pickle",
    "Sage",
    "Bagel",
    "Cosmo",
    "Peanut",
    "Rusty",
)

HOBBIES = (
    "rock climbing",
    "trail running",
    "watercolour painting",
    "pottery",
    "chess",
    "salsa dancing",
    "birdwatching",
    "photography",
    "baking sourdough",
    "playing the cello",
    "cycling",
    "yoga",
    "gardening",
    "board games",
    "kayaking",
    "knitting",
    "swimming",
    "woodworking",
)

GENTLE_HOBBIES = ("yoga", "swimming", "knitting", "birdwatching", "gardening", "chess", "pottery")

DESTINATIONS = (
    "Kyoto",
    "Reykjavik",
    "Marrakech",
    "Cape Town",
    "Lisbon",
    "Hanoi",
    "Buenos Aires",
    "Tromsø",
    "Crete",
    "Banff",
    "Santorini",
    "Tasmania",
    "Cusco",
    "Seoul",
    "Edinburgh",
    "Istanbul",
    "Dubrovnik",
    "Oaxaca",
    "Bali",
    "Vancouver Island",
    "the Amalfi Coast",
    "Patagonia",
)

TRIP_ACTIVITIES = (
    "a sunrise hike",
    "a cooking class",
    "a boat tour",
    "a night market",
    "a glacier walk",
    "a wine tasting",
    "a snorkelling trip",
    "a street-food tour",
    "a hot-spring visit",
)

RESTAURANTS = (
    "Luigi's Trattoria",
    "The Copper Pot",
    "Sakura Garden",
    "Casa Verde",
    "The Blue Door",
    "Little Saigon",
    "Olive & Thyme",
    "The Grainhouse",
    "Maison Rouge",
    "Spice Route",
)

DISHES = (
    "mushroom risotto",
    "pad thai",
    "lamb tagine",
    "grilled octopus",
    "ramen",
    "paella",
    "duck confit",
    "shakshuka",
    "pho",
    "gnocchi",
)

PLACES_TO_MEET = (
    "a friend's birthday party",
    "a climbing gym",
    "a book club",
    "a wedding",
    "a pottery class",
    "a charity run",
    "a coworking space",
    "a dog park",
    "a board-game café",
    "a music festival",
)

COURSES = (
    "data science",
    "UX design",
    "project management",
    "Spanish",
    "Japanese",
    "web development",
    "accounting",
    "digital marketing",
    "machine learning",
    "photography",
)

COURSE_PROVIDERS = (
    "Coursera",
    "the community college",
    "the city university",
    "Udacity",
    "a local academy",
    "an evening school",
)

INJURIES = (
    ("a sprained ankle", "ankle"),
    ("a torn ligament in the knee", "knee"),
    ("a fractured wrist", "wrist"),
    ("a strained shoulder", "shoulder"),
    ("a pulled hamstring", "hamstring"),
)

CLINICS = (
    "Riverside Clinic",
    "St. Mary's Hospital",
    "Oakwood Physio",
    "the Lakeside Health Centre",
    "Greenfield Medical",
    "the City Sports Clinic",
)

DOCTORS = (
    "Dr. Alvarez",
    "Dr. Kim",
    "Dr. Okoro",
    "Dr. Lindgren",
    "Dr. Rossi",
    "Dr. Haddad",
    "Dr. Patel",
)

BANDS = (
    "The Midnight Foxes",
    "Coral Static",
    "Velvet Harbor",
    "Paper Lanterns",
    "The Northern Keys",
    "Glass Animals Tribute",
    "Saltwater Choir",
    "Neon Orchard",
)

VENUES = (
    "the Riverside Arena",
    "the Roxy",
    "the open-air theatre",
    "the Jazz Cellar",
    "the Opera House",
    "the Old Mill",
)

BOOKS = (
    ("Project Hail Mary", "Andy Weir"),
    ("Circe", "Madeline Miller"),
    ("The Overstory", "Richard Powers"),
    ("Educated", "Tara Westover"),
    ("Piranesi", "Susanna Clarke"),
    ("Klara and the Sun", "Kazuo Ishiguro"),
    ("Sapiens", "Yuval Noah Harari"),
    ("The Midnight Library", "Matt Haig"),
)

ADMIN_TASKS = (
    ("renewed the passport", "the passport office"),
    ("filed the tax return", "an accountant"),
    ("renewed the lease", "the landlord"),
    ("switched the electricity provider", "an online form"),
    ("got a new driving licence", "the licensing office"),
    ("opened a savings account", "the bank branch"),
)

REPAIRS = (
    "a leaking kitchen tap",
    "a broken boiler",
    "a cracked window",
    "a faulty washing machine",
    "a jammed garage door",
    "a flooded bathroom floor",
)

VOLUNTEERING = (
    "a food bank",
    "a beach clean-up",
    "an animal shelter",
    "a literacy programme",
    "a community garden",
    "a youth football club",
)

CONFERENCE_TOPICS = (
    "supply-chain analytics",
    "patient safety",
    "sustainable design",
    "cloud security",
    "early-years education",
    "urban mobility",
    "financial reporting",
)

INTERLOCUTOR_ROLES = (
    ("an old friend", "weekly phone calls"),
    ("a life coach", "coaching sessions over video"),
    ("a sibling", "Sunday catch-ups over coffee"),
    ("a therapist", "counselling sessions"),
    ("a former colleague", "lunch meetups"),
    ("a neighbour", "chats over the garden fence"),
)

SMALL_TALK = (
    "the weather has been all over the place lately",
    "I've been trying to drink less coffee",
    "there's a new bakery on the corner that's always packed",
    "I finally finished that TV series everyone talks about",
    "the trains have been delayed all week",
    "I started going to bed earlier",
    "my plants are somehow still alive",
    "I keep meaning to call my grandmother more often",
    "the neighbours are renovating again",
    "I tried a new recipe with lentils",
    "I've been listening to a podcast about space",
    "my inbox is a disaster",
    "I reorganised my bookshelf by colour",
    "the park near me has new benches",
    "I found an old photo album in a box",
    "I might repaint the hallway",
)

ROAD_TRIP_PLACES = (
    "the Pacific coast",
    "the Rocky Mountains",
    "the lake district",
    "the wine country",
    "the national park",
    "the Black Forest",
    "the Scottish Highlands",
    "the Dolomites",
)
