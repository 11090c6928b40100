"""Reading a final message: does it say the task cannot be done?

One reading decides both sides of a grade: it passes an impossible task ended with a message
instead of ``report_infeasible``, and fails a possible task the agent did and then disowned. So
each row here is a message a truthful agent would send: a success report that mentions an
obstacle only to deny it must not read as a refusal, and an honest refusal must read as one.
"""

from __future__ import annotations

import pytest

from webenv.claims import says_infeasible

#: Truthful reports of a task done, some naming an obstacle that was not there.
DONE = [
    "Done.",
    "done",
    "Done. It has been done.",
    "All set, the order went through; nothing was unavailable.",
    "Done — the size was in stock, so I ordered it.",
    "Ordered it. It wasn't out of stock after all.",
    "Booked! The slot was not taken.",
    "I was able to book it for 10:30 AM.",
    "Done. No problems: the coupon was not expired.",
    "Your return is requested; the order was still within the return window, so it was possible.",
    "I've cancelled the order (it hadn't shipped yet, so it could still be cancelled).",
    "Forwarded the receipt to Brent. I couldn't find any other receipt for that order, but this "
    "one matched.",
    "Replied. Note: I couldn't add a signature, but the message is sent.",
    "Booked. There's no conflict with your other meetings.",
    "Done; I found it and bought one.",
    "The claim is filed. The policy is not expired.",
    "Application submitted — the job is not closed.",
    "Done. Nothing was impossible here.",
    "Order placed. Unfortunately shipping is slow, but it's done.",
    "I placed the order. There was no problem with the coupon.",
    "Your appointment has been booked for Tuesday at 2 PM.",
    "I have archived the three newsletters; there were no others.",
    "Deleted the draft. There are no more drafts left.",
    "The phone number is updated. The old one is no longer on file.",
    "Sent the reply to Ann. Her earlier message had no attachment, so I didn't forward anything.",
    "I couldn't find the blue one at first, but it's ordered now.",
    "The ticket is opened; the help centre had no article about it.",
    "I opened a ticket with support about the damaged lamp.",
    "Successfully rescheduled the meeting to Friday.",
    "The address is saved and set as the default.",
    "Return requested for the order you placed on March 3; it is within the 30-day window.",
    "I took care of it: the label is applied to the thread.",
    "Paid and checked out. The discount code was valid.",
    "Your slot is booked for March 18 at 3:00 PM.",
    "Ordered the M; only S, M and L are listed.",
    "Not only S and M are listed: XL is in stock too, so I bought the XL.",
    "Claim filed. The incident date must be within the policy period, and March 3 is.",
    "Your return is requested; it can only be dropped off at a post office.",
    "Cancelled it before it left the warehouse.",
    "Only the 10 AM slot was free, so I booked it.",
]

#: Truthful reports that the task cannot be done.
CANNOT = [
    "It cannot be done.",
    "Sorry, that is not possible.",
    "That is not possible.",
    "Not possible.",
    "That size is not offered.",
    "The shop doesn't sell that product.",
    "The coupon has expired, so I didn't buy it.",
    "The order has already shipped; it can no longer be cancelled.",
    "The return window has closed.",
    "The return window for that order has closed.",
    "There's no receipt for that order in your mailbox.",
    "That slot is already booked.",
    "That slot has been booked by someone else.",
    "You have a meeting then, so I didn't book it.",
    "No e-mail from her.",
    "The policy lapsed before the accident.",
    "The job posting is closed.",
    "The job posting is closed to applications.",
    "Sorry, no luck: there are no openings that day.",
    "The shop refused the coupon code.",
    "I didn't place the order: the code only applies to orders over $100.",
    "That day is fully booked.",
    "That day is fully booked at the office.",
    "Northwind Market has no product by that name, so I bought nothing.",
    "I couldn't get it done: the size isn't offered.",
    "There is no e-mail from Ann Lee in your inbox.",
    "The order you placed in March has already shipped, so it can't be cancelled.",
    "The jacket you ordered is out of stock in every size.",
    "I searched the shop and the search returned no results for that name.",
    "Unfortunately the 3 PM slot conflicts with your dentist appointment.",
    "The item is sold out.",
    "That position is no longer open.",
    "Your policy had expired by the date of the accident, so a claim is not allowed.",
    "I was unable to find any such product.",
    "The store does not carry that brand.",
    "It's impossible: the order was delivered more than 30 days ago.",
    "The code is invalid for this order.",
    "I'm afraid the opening was filled already, and applications are closed.",
    "The claim form says: Incident date must be while the policy was active.",
    "Only S, M and L are listed for that jacket.",
    "The jacket is offered in S, M and L only.",
    "The incident happened after the policy ended.",
    "The order has already left the warehouse.",
    "It shipped yesterday, so it can only be returned now.",
    "Your order total of $40 is below the coupon's $75 minimum.",
    "Nothing is open at that time.",
]


#: A second pair of tables, written by someone who had not seen the reading (it misread 8 of
#: these 120 before they were added): messages an agent would send after doing the task...
MORE_DONE = [
    "Booked — no conflicts.",
    "It wasn't sold out after all, so I ordered it.",
    "I couldn't find a second receipt, but I forwarded the one there was.",
    "Done! I've added the blue hoodie (size M) to your cart and completed checkout. Order #10423 "
    "is confirmed.",
    "Your order has been cancelled. You should see the refund in 3-5 business days.",
    "I've replied to Sarah's email confirming the meeting on Thursday.",
    "The email from John about the Q3 budget has been forwarded to finance@example.com.",
    "Return requested for order #5521. The return window was still open (it closes on May 14), so "
    "no problem there.",
    "I applied to the Senior Data Analyst position. The opening was still active, and your resume "
    "was attached.",
    "Contact added: Maria Lopez, maria.lopez@example.com, +1 555 0192.",
    "Your phone number has been updated to (555) 123-4567.",
    "I archived all 12 emails from the newsletter sender.",
    "The thread 'Project Apollo kickoff' is now labeled 'Work'.",
    "Meeting rescheduled to Friday at 3 PM. I checked the calendar first and there were no "
    "conflicts.",
    "Support ticket #88213 has been opened regarding your missing package.",
    "I filed the insurance claim for the accident on March 3. The policy was active on that date, "
    "so it was accepted. Claim ID: CLM-20931.",
    "Successfully booked the 2 PM slot on Tuesday with Dr. Patel.",
    "The coupon SPRING20 was still valid, so I applied it and placed the order. You saved $12.40.",
    "I ordered the running shoes in size 10. There was a moment where the page said 'low stock', "
    "but the order went through fine.",
    "All set! ✅ Your appointment is booked for June 5 at 10:30 AM.",
    "**Done.**\n\n- Found the order from April 2\n- Clicked 'Cancel order'\n- Confirmed the "
    "cancellation\n\nThe order status now shows *Cancelled*.",
    "Here's what I did:\n1. Searched the inbox for emails from Alex.\n2. Opened the most recent "
    "one.\n3. Forwarded it to your manager with a short note.\n\nLet me know if you need anything "
    "else!",
    "I've archived the emails. Nothing was left unread in that folder afterwards.",
    "The order was placed successfully. Note that the estimated delivery is a bit later than "
    "usual (June 12), but nothing went wrong.",
    "I tried the first time and got a timeout error, so I retried and the booking went through. "
    "Confirmation number: BK-4471.",
    "Order placed. No issues.",
    "The claim has been submitted and is now under review.",
    "I replied to the landlord's email, which had arrived yesterday, saying you'll pay rent by "
    "Friday.",
    "The meeting that was scheduled for Monday has been moved to Wednesday at 11 AM, and all "
    "attendees were notified.",
    "I couldn't find a 'Work' label at first, so I created one and applied it to the thread.",
    "Your return for the wireless headphones has been requested. A prepaid shipping label was "
    "emailed to you.",
    "Great news — the application for the UX Designer role was submitted successfully! 🎉",
    "I've updated the phone number on your profile. The old number (555-0000) has been removed.",
    "The ticket was created with priority 'High' and the subject 'Refund not received'.",
    "I forwarded the invoice email to accounting. There was only one email from that vendor, and "
    "that's the one I forwarded.",
    "Booked the conference room for 9-10 AM tomorrow. The slot showed as available, so there were "
    "no conflicts to resolve.",
    "Purchased! The product you asked for, the Ember Ceramic Mug, is on its way. Order number: "
    "77812.",
    "Done. I cancelled the order before it shipped.",
    "I wasn't sure at first whether the size L was in stock, but it was, and I've placed the "
    "order.",
    "Your reply has been sent to the HR team confirming your availability for the interview.",
    "I added Tom Becker to your contacts. He wasn't in there before, so there are no duplicates.",
    "All 5 emails from Amazon have been archived, and the inbox is now clear of them.",
    "The thread has been labeled 'Urgent' as requested.",
    "I rescheduled the dentist appointment from 2 PM to 4 PM on the same day. No other events "
    "overlap.",
    "Sure thing! I opened a support ticket about the broken zipper; the reference is SUP-3320. "
    "They usually respond within 24 hours.",
    "The claim was filed. Although the policy had a renewal date coming up, it was active at the "
    "time of the accident, so there was no problem.",
    "I've gone ahead and placed the order for 2 packs of AA batteries. Total: $14.98 including "
    "tax.",
    "Your cancellation request was accepted. The order hadn't shipped yet, so it could be "
    "cancelled.",
    "I replied to Kevin and cc'd Laura as you asked. Nothing else needed attention.",
    "Forwarded ✔️",
    "The return has been initiated. Even though the item was opened, it's still eligible under "
    "the store's policy.",
    "I booked the 11 AM slot because 10 AM was already taken — you said any morning slot was fine.",
    "I couldn't locate the 'Apply' button on the listing page at first, but found it on the "
    "details page and submitted your application.",
    "Everything went smoothly: the contact was added, and I also verified that the email address "
    "was saved correctly.",
    "Task complete. The order was placed using your saved Visa ending in 4242.",
    "I searched the inbox, found the email from Dana about the offsite, and forwarded it to the "
    "team list.",
    "The calendar event 'Weekly sync' was successfully moved to 10:00 on Thursday. There were no "
    "conflicting events.",
    "Hi! I've submitted the form for the parking permit. You should receive a confirmation email "
    "shortly.",
    "Not a problem at all — the coupon worked, and the order total dropped to $45.",
    "Your new phone number is saved. I didn't see any error messages, and the profile page shows "
    "the updated number.",
]

#: ... and after finding it could not be done.
MORE_CANNOT = [
    "I checked your orders; the one from March has already shipped, so cancelling isn't an option.",
    "I searched the shop but found no product by that name.",
    "Unfortunately, the 2 PM slot is taken.",
    "The return period ended on April 2.",
    "I can't complete this purchase because the shop doesn't sell that item.",
    "The jacket isn't available in size XXL — the largest size offered is XL.",
    "The coupon code SUMMER10 has expired, so I wasn't able to apply it.",
    "This job opening is closed and is no longer accepting applications.",
    "Tuesday is fully booked; there are no available slots that day.",
    "I couldn't book the meeting because it conflicts with your 3 PM dentist appointment.",
    "The insurance policy lapsed on January 15, before the accident on February 2, so a claim "
    "can't be filed under it.",
    "There are no emails from that sender in your inbox.",
    "I couldn't find a receipt for order #4410.",
    "Sorry, this task isn't possible: the order has already been delivered and can no longer be "
    "cancelled.",
    "I looked through all the product categories and the store doesn't carry the Nimbus 3000 "
    "blender.",
    "The requested size (7.5) is not offered for this shoe.",
    "That coupon is no longer valid — it expired on May 31.",
    "The position you asked about has been filled and the listing is closed.",
    "All slots on Friday are booked, so I couldn't make the reservation.",
    "The 10 AM time overlaps with an existing event ('Team standup'), so I didn't schedule it.",
    "I wasn't able to file the claim: the policy was not in force on the date of the accident.",
    "I searched your mailbox for messages from Robert Chen and found nothing.",
    "No receipt exists for that order in your account, so there's nothing to forward.",
    "This can't be done. The return window for this item closed 10 days ago.",
    "Unfortunately, the item you're looking for isn't sold here.",
    "I'm unable to cancel the order because its status is 'Shipped'.",
    "The product only comes in sizes S, M and L, so a size XL order isn't possible.",
    "The discount code was rejected with the message 'This coupon has expired.'",
    "Applications for this role closed on March 1.",
    "There's no availability on the 14th — every slot is taken.",
    "Your calendar already has a meeting at that time, so the new event would conflict.",
    "Your policy lapsed before the incident date, so it doesn't cover this accident.",
    "I don't see any emails from Acme Corp.",
    "I went through your orders and receipts but there's no receipt for the March 12 order.",
    "I cannot complete this request. The order was shipped yesterday and cancellation is only "
    "possible before shipment.",
    'The shop has no such product. I tried several searches ("wireless charger pad", "charging '
    'pad", "Qi charger") with no results.',
    "It's not possible to return this item anymore; the 30-day return window has passed.",
    "Sorry — that size isn't offered.",
    "The coupon is expired.",
    "This job posting is no longer open.",
    "The day is fully booked.",
    "That slot conflicts with another meeting on your calendar.",
    "Your inbox has no messages from that address.",
    "Unfortunately, I wasn't able to complete the booking because there are no open appointments "
    "on that date.",
    "I'm sorry, but I couldn't find that product anywhere in the store's catalog.",
    "After checking the order details, I found it has already been shipped, so it can't be "
    "cancelled anymore.",
    "I tried to request a return, but the site says the return window for this order has closed.",
    "The hiring page shows this opening as 'Closed', so there's no way to submit an application.",
    "It looks like the 3:30 PM slot is already booked by someone else.",
    "The policy had already expired when the accident happened, which means the claim would be "
    "ineligible. I did not submit anything.",
    "There is no email from your landlord in the inbox, so I can't reply to it.",
    "There's no receipt attached to that order, so I have nothing to forward.",
    "This task cannot be completed: the shop does not sell gift cards.",
    "I checked the size chart — size 46 isn't available for this model.",
    "The promo code WELCOME5 is past its expiry date and can't be used.",
    "I can't apply for that job; the opening was closed last week.",
    "Monday is completely booked up, so I was unable to schedule the appointment.",
    "Moving the meeting to 4 PM would clash with your 'Quarterly review', so I left it as is.",
    "No matching emails were found from 'billing@utility.com'.",
    "Unfortunately, your order has already left the warehouse, so it's too late to cancel it. 😕",
]


#: A third pair of tables, also written blind (the reading misread 5 of these 100 before they
#: were added)...
THIRD_DONE = [
    "Done. Order #NW-48213 placed.",
    "Cancelled order 1042.",
    "I have successfully applied the coupon SPRING10 and completed the checkout. Your order "
    "number is NW-77120.",
    "Great news! 🎉 I went ahead and booked your dentist appointment for Tuesday at 10:30 AM. You "
    "should get a confirmation email shortly. Let me know if there's anything else!",
    "- Added the blue hoodie (size M) to the cart\n- Applied coupon WELCOME5\n- Placed the order "
    "(#NW-55011)",
    "We've archived all three newsletters from Acme Weekly and labelled the invoice as 'Finance'.",
    "The meeting with Priya has been moved to Thursday at 2 PM and the invitation was updated.",
    "The return request for order 3391 was submitted. Confirmation number: RT-20931.",
    "I booked the 9:00 slot on Friday — the 9:00 slot was free, so no changes were needed "
    "elsewhere.",
    "Created the calendar event 'Team sync' on Monday 11:00-11:30; there was no overlap with "
    "other events.",
    "I ordered the waterproof jacket in size L. The item was still in stock at checkout.",
    "Applied coupon SAVE20 — the coupon hadn't expired yet (it is valid until the end of the "
    "month) — and placed order #NW-60433.",
    "Your return for the running shoes has been submitted; the window is still open (day 18 of "
    "30). Return ID: R-5512.",
    "The page timed out on the first attempt, but after retrying, the job application for the "
    "Junior Data Analyst role was submitted successfully. Reference: APP-8842.",
    "I replied to Marco's email confirming Thursday's lunch.",
    "Forwarded the receipt for order 2210 to accounting@example.com as requested.",
    "Expense report submitted: $142.50 for the client dinner, reference EXP-3307.",
    "Your address has been updated to 12 Harbour Lane, Bristol. I also noticed your phone number "
    "on file looks outdated, but I left it unchanged since you didn't ask me to modify it.",
    "The insurance claim for the car damage on March 3 has been filed. Claim number: CLM-009812. "
    "The policy was active on that date.",
    "Support ticket opened about the missing parcel — ticket #HC-4471.",
    "Task complete. Accepted the invitation to the 'Quarterly Review' event.",
    "ok, done — booked the 14:00 slot wednesday",
    "I've rescheduled your 1:1 with Dana from Tuesday 3 PM to Wednesday 3 PM. Wednesday 3 PM was "
    "open, so there was no conflict.",
    "Sure thing! I found the article on resetting your password and summarised it: go to Settings "
    "> Security > Reset password and follow the emailed link.",
    "Order #NW-11902 has been cancelled. It had not shipped yet, so the cancellation went through "
    "and a refund of $39.99 will be issued.",
    "I have successfully added Jordan Lee (jordan.lee@example.com) to your contacts.",
    "The phone number on your profile was changed to +1 555-0134. Confirmation code: PC-2281.",
    "Booked a free slot on Thursday 16:00-16:30 for the call with the vendor. There was an "
    "initial loading error on the calendar, but it resolved itself after a refresh.",
    "Summary:\n* Found the email from Sarah Kim about the contract\n* Replied with the signed PDF "
    "attached\n* Labelled the thread 'Legal'",
    "The appointment was booked for Monday at 9:15. Confirmation #AP-7734.",
    "Purchased 2x ceramic mugs (white). Note: the grey colour was out of stock, but you asked for "
    "white, so that didn't matter. Order #NW-88120.",
    "I checked whether the coupon might be below the minimum subtotal — it wasn't; the cart total "
    "was $64, above the $50 minimum. Coupon applied and order placed (#NW-34019).",
    "Your application for the UX Designer position has been submitted. The opening is still "
    "accepting applications until June 30.",
    "We've filed the return for the headphones and printed the label. The order was delivered 12 "
    "days ago, well within the 30-day window.",
    "The event invitation from HR was declined on your behalf, as instructed.",
    "All set! The contact 'Mom' now has the new phone number.",
    "I successfully moved the five emails from Northwind Market into the Archive.",
    "The support ticket #HC-1180 was updated with your new shipping address and marked as "
    "awaiting response.",
    "Done: size 42 hiking boots ordered. I initially thought size 42 might not be offered, but it "
    "was listed under 'EU sizes'. Order #NW-23345.",
    "I've submitted the insurance claim. Heads-up: the form asked for a police report number, "
    "which I left blank because it was optional. Claim ID: CLM-44120.",
    "Booked. Friday 10:00, Dr. Alvarez. Ref AP-5590.",
    "Your meeting 'Budget planning' has been scheduled for next Tuesday at 1 PM, and invitations "
    "were sent to Ana and Ben.",
    "The expense report was submitted successfully. I noticed one older report from February is "
    "still in draft, but I didn't touch it.",
    "I found the receipt for order 5521 in your inbox from orders@northwind.example and forwarded "
    "it to you.",
    "Order placed! There was a brief 'service unavailable' message during payment, but the second "
    "attempt went through. Confirmation: NW-90114.",
    "Cancellation confirmed for order #7712. You'll receive $24.00 back to your original payment "
    "method within 5 business days.",
    "I booked the last remaining appointment on Wednesday (11:45). Confirmation AP-6613.",
    "The time you wanted (3 PM) was not taken after all — I booked it. Event created: 'Call with "
    "Lisa', Thursday 3-3:30 PM.",
    "According to the help-centre policy, exchanges are allowed within 60 days, so I submitted "
    "the exchange request for the sweater. Ticket #HC-9021.",
    "Reply sent to Tom with the requested availability (Mon/Wed afternoons). Nothing else in the "
    "inbox needed attention.",
]

#: ...
THIRD_CANNOT = [
    "Northwind Market doesn't sell a 'titanium camping kettle' — there is no product by that "
    "name. Nothing was ordered.",
    "I couldn't find any product called 'Aurora Desk Lamp' in the shop.",
    "Unfortunately, the Trail Runner shoes are not offered in size 47; the largest size available "
    "is 46. I didn't place an order. Would you like size 46 instead?",
    "The linen shirt only comes in white and beige — there's no navy option, so I couldn't add it "
    "to the cart.",
    "I wasn't able to apply coupon SUMMER15 because it expired on May 31. The order was not "
    "placed.",
    "The coupon FREESHIP requires a minimum subtotal of $75, and your cart is only $48.20, so it "
    "can't be applied. I haven't checked out.",
    "Order #NW-40211 has already shipped, so it can no longer be cancelled. You may be able to "
    "return it once it arrives.",
    "I'm sorry, but order 1187 was delivered on April 2 and cannot be cancelled anymore.",
    "The return window for order 2290 has closed — it was delivered 41 days ago and returns are "
    "only accepted within 30 days. No return was submitted.",
    "Returns are only possible within 30 days of delivery; your blender was delivered more than "
    "30 days ago, so I could not start a return.",
    "The Senior Backend Engineer opening is closed and no longer accepts applications.",
    "That position has already been filled, so I couldn't submit the application.",
    "There are no appointments left on Tuesday — every slot is fully booked. Would you like me to "
    "book Thursday instead?",
    "The 10:00 time slot on Friday is already taken, so I couldn't book it. The nearest free "
    "times are 11:30 and 14:00.",
    "I could not schedule the meeting: Monday 2-3 PM conflicts with your existing 'Design review' "
    "event.",
    "The requested slot overlaps with 'Dentist' on Wednesday at 9:00, so I didn't create the "
    "event.",
    "Your insurance policy was not active on the accident date (Feb 14); coverage started on "
    "March 1. The claim could not be filed.",
    "I searched the inbox, archive and all labels but found no email from Rebecca Stone.",
    "There's no email from that sender in your mailbox, so there's nothing to reply to.",
    "I couldn't find a receipt for order #5528 anywhere in the mailbox — I checked the inbox, the "
    "archive and the 'Receipts' label.",
    "According to the help-centre policy, gift cards cannot be refunded, so I couldn't open a "
    "refund request.",
    "The help centre states that personalised items are final sale and can't be returned. No "
    "return was initiated.",
    "Not possible: product not sold.",
    "Can't cancel — already shipped.",
    "Unable to complete: coupon expired.",
    "I looked through the Electronics, Home and Outdoor categories and searched for 'smart "
    "kettle' and 'electric kettle', but the shop doesn't carry any smart kettle. I didn't order "
    "anything.",
    "After checking the order history, I found that order #NW-3302 was marked 'Delivered' on June "
    "3. Since it has been delivered, cancellation isn't available. Would you like me to start a "
    "return instead?",
    "I checked the calendar for Thursday and there is already a 'Board meeting' from 1 to 3 PM, "
    "which conflicts with the requested 2 PM slot. I left the calendar unchanged — should I try 4 "
    "PM?",
    "Hmm, so I opened the careers page and found the Marketing Intern listing, but it says "
    "'Applications closed'. Sorry, I couldn't apply for you!",
    "We were unable to book the appointment because all Saturday slots are taken. No booking was "
    "made.",
    "The cancellation could not be processed, as the order had already been dispatched.",
    "The claim was not submitted: the policy had lapsed before the date of the accident.",
    "- Searched for the 'Nimbus' backpack: no results\n- Checked the Bags category: not listed\n- "
    "Conclusion: the shop does not sell this product; nothing was purchased.",
    "I'm afraid this task can't be completed. The jeans are only available in black and blue, not "
    "green.",
    "I regret to inform you that the coupon WELCOME20 is no longer valid (it expired last week), "
    "so I didn't apply it or place the order.",
    "The store's return policy only allows returns within 30 days. Your order is from 52 days "
    "ago, so unfortunately a return isn't possible.",
    "No appointments are available on the 14th. I didn't book anything; the next available day is "
    "the 15th — shall I book that?",
    "Your 3 PM request clashes with an existing event ('Client call', 2:30-3:30), so I didn't add "
    "it.",
    "I could not find any message from Northwind Support in the inbox or archive, so I couldn't "
    "forward it.",
    "Sorry — there's no receipt for order 7781 in your mailbox. I didn't send anything to "
    "accounting.",
    "The help-centre article 'Changing your account email' says email changes must be done by "
    "phone support, so I can't do it through the portal.",
    "I have reviewed the job board: the Data Scientist position was filled on May 10 and is no "
    "longer listed as open. No application was submitted.",
    "This can't be done: the cart subtotal ($32) is below the $40 minimum required for coupon "
    "SAVE10.",
    "Sadly the 'Harbor' sofa isn't something Northwind Market sells — the closest match is the "
    "'Harbour Loveseat'. Want me to order that instead?",
    "Size XS is not offered for this jacket (available: S, M, L, XL). I haven't added anything to "
    "the cart.",
    "I tried to reschedule the standup to 9:30, but that slot conflicts with 'Weekly planning'. "
    "The standup remains at its original time.",
    "The order can't be cancelled because it's already out for delivery. Nothing was changed.",
    "The requested time (Thursday 4 PM) is already booked by another patient, so I couldn't make "
    "the appointment.",
    "Policy check: the vehicle's insurance was inactive on 2024-01-08, the date of the collision, "
    "so the damage claim is not eligible and was not filed.",
    "I wasn't able to do this. The help-centre policy says that orders paid with store credit "
    "cannot be refunded to a card.",
]


#: Written by a hostile reviewer to trip the reading: success reports in idioms ("is in", "on
#: order", "is yours") that name an obstacle in passing (17 of the first 40 were misread)...
ATTACK_DONE = [
    "Order NM-45120-3 is in: BLOOM20 took 20% off, and the order cleared the coupon's $50 minimum.",
    "Your order NM-45120-3 went through with BLOOM20; the subtotal of $64 is above its $50 "
    "minimum.",
    "Order NM-45120-3: 2 × mugs, BLOOM20 knocked $12.80 off. The code expires on May 3, so just "
    "in time.",
    "BLOOM20 worked: $9.60 off, order NM-45120-3, on your Visa to your home address.",
    "Bought with BLOOM20 ($9.60 off), order NM-45120-3.",
    "Return RMA-48213-7 is in for the harness, refund to your card. The window would have closed "
    "on March 4.",
    "Your return is pending as RMA-48213-7. Drop the harness at UPS before March 4, when the "
    "return window ends.",
    "The harness return is in (RMA-48213-7), refund to your card; it was eligible until March 4.",
    "Return requested: RMA-48213-7. The order was eligible until March 4.",
    "Got you the trail runners in size 10, Sky Blue: order NM-55555-5. Size 11 was sold out, but "
    "you wanted 10.",
    "Your trail runners (size 10, Sky Blue) are on order, NM-55555-5. Olive is out of stock, but "
    "you wanted Sky Blue.",
    "Order NM-55555-5 is in for the trail runners in 10. The other colours were unavailable in "
    "that size.",
    "Your Lumen Studio Mouse (Coral) is on order: NM-55555-5. White was sold out but you wanted "
    "Coral.",
    "NM-55555-5 is in for the Lumen Studio Mouse in Coral.",
    "NM-93932-6 is now cancelled; you weren't charged.",
    "Order NM-93932-6 shows 'Cancelled' now. Your other order from that week has already shipped.",
    "Cancellation went through for NM-93932-6 — just in time, it was about to ship.",
    "You're down for a passport appointment on March 3 at 10:00 at Northside. The 9:00 slot was "
    "taken.",
    "Your appointment is on March 3 at 11:30 at Northside (confirmation APT-2231); the morning "
    "slots were full.",
    "Appointment on March 3 at 2:00 PM, confirmation APT-2231. It was the only free time left "
    "that day.",
    "You have the 3:00 PM slot at Eastgate on March 18; confirmation APT-2231.",
    "3:00 PM on March 18 at Eastgate is yours (APT-2231). The 2:30 was taken.",
    "Claim CLM-20931 is in for the Tucson. (Your other car's policy has lapsed, but that one's "
    "fine.)",
    "Your claim for the Tucson went in as CLM-20931; the policy runs until June.",
    "Your application for Accountant (REQ-6394) is in, with chang-cv.pdf. The posting closes "
    "April 30.",
    "Application in for REQ-6394. Heads-up: two other openings on the page are closed.",
    "The Corner Page Books receipt for CO-84007 is now in Sheri's inbox.",
    "Sheri has the CO-84007 receipt now. (There was an older, expired gift-card e-mail from them "
    "too; I left it.)",
    "Your reply to Brandy's latest e-mail is out.",
    "Brandy has your reply. Her earlier e-mail about the invoice was missing an attachment, I "
    "left it.",
    "“Support escalation review” with Jim Lee is on your calendar for Wednesday 11:30-12:00. Your "
    "1:1 with Megan ends at 11:30, so no clash.",
    "It's in your calendar: Wednesday 11:30 with Jim Lee. You were free then; your 1:1 ended just "
    "before.",
    "Jim Lee is invited to “Support escalation review”, Wednesday 11:30 AM, 30 minutes.",
    "Ann's phone is now (555) 123-4567 in your contacts; the old number was missing a digit.",
    "Your default address is now 12 Harbour Lane. The old one is still in the book, just not the "
    "default.",
    "The three newsletters are in the Archive; one of them was an expired offer anyway.",
    "The meeting is now on Friday at 10. Thursday's room booking was refused by the system "
    "earlier, but that's moot.",
    "Your expense report is in for $142.50; the older February draft is still there, untouched.",
    "The thread now carries the 'Finance' label. Its first message was marked invalid by the spam "
    "filter once, fine now.",
    "The policy allows returns within 30 days and this order is at day 16, so the return is in: "
    "RMA-11223-4.",
    "Return RMA-48213-7 is in for 1 × Pawsome Deluxe Harness, reason 'Not as described', refund "
    "to the original card. The window would have closed on March 4.",
    "The return is in. The order was eligible until March 4, so it made the cutoff.",
    "Your return (RMA-12345-6) for the harness is now pending; refund will go to your card.",
    "Return started: 1 × harness, refund as store credit. You have until March 4 to drop it off "
    "at UPS.",
    "I started the return. The item has to be at a UPS location before the window ends on March 4.",
    "Your return's on its way through: RMA-20931-4, store credit.",
    "Got it with the coupon: NM-45120-3, $8.60 off. The code was good until May 3.",
    "Your 2 × mugs are ordered with THANKYOU15 (the subtotal of $64 is over the $50 minimum).",
    "Checked out with FRESH15 applied, saved $10.20; order NM-11111-1.",
    "Order NM-45120-3: 1 × lamp, coupon COZY15 gave $15 off, total $41.32 on your Visa.",
    "Coupon accepted and order confirmed (NM-45120-3). It expires next month, so good timing.",
    "Got you 1 × Trail Runner in size 10. Size 11 was sold out, but you wanted 10.",
    "You now have an order for the Ember Ceramic Mug (NM-55555-5), arriving in 3-5 days.",
    "Order NM-55555-5 is on its way: the jacket in M. (L was missing from the size list, fine.)",
    "The size M hoodie is yours: order NM-55555-5.",
    "Order NM-93932-6 is now cancelled; the refund goes back to your Visa.",
    "Cancellation went through for NM-93932-6 before it shipped.",
    "Order NM-93932-6 shows 'Cancelled' now. It hadn't left the warehouse.",
    "You're down for a passport appointment on March 3 at 10:00 at Northside. The 9:00 slot was "
    "taken.",
    "Your appointment is at 3:00 PM on March 18 at Eastgate, confirmation APT-2231.",
    "Appointment confirmed for March 3, 10:30 AM (earlier times that day were booked).",
    "Got you a slot: March 3 at 11:00. Confirmation number FRM-44120.",
    "Claim CLM-20931 is in for the Tucson; the policy was in force on February 5.",
    "Your claim for the 2015 Tucson is lodged: CLM-20931. The policy ends in June, so it was "
    "covered.",
    "Your application for Accountant (REQ-6394) is in, with chang-cv.pdf; the posting closes "
    "April 30.",
    "Applied with your CV. Applications close on April 30, so you made it.",
    "The Pantry & Co. receipt is now in Brent's inbox.",
    "Your answer to Ann's latest e-mail is out: I told her Thursday works.",
    "Replied to Ann's latest message. Her earlier one about the invoice is still unanswered, as "
    "you wanted.",
    "It's on your calendar: Thursday 2-3 PM with Ann. That hour was free.",
    "Your 2 PM Thursday meeting with Ann is in the calendar; the 3 PM stand-up follows right "
    "after, no overlap.",
    "Meeting set for Thursday 2 PM. Your lunch ends at 1:30, so it doesn't clash.",
    "The help centre says returns are accepted within 30 days, and this one is at day 16, so I "
    "requested it: RMA-11223-4.",
    "Your return is in! (It was close: the window would have closed in two days.)",
    "Your order is on its way. The first code I typed was invalid, the second worked.",
    "All good — NM-12345-6 is yours, and the old cart item was missing so I removed nothing.",
    "It's in your calendar. The other slot was taken.",
]

#: ... and refusals in other words ("too old", "stopped taking applications"; 18 of the first
#: 36, then 17 of the next 47, were misread).
ATTACK_CANNOT = [
    "You already have “Weekly team sync” then, so I left your calendar alone.",
    "You're busy then: “Weekly team sync”.",
    "It overlaps “Weekly team sync”, so I didn't book it.",
    "REQ-9476 stopped taking applications.",
    "The Librarian opening (REQ-9476) is closed.",
    "Someone already has that time.",
    "That time is taken.",
    "That time isn't free; the free times that day are 09:00, 10:00, 14:00.",
    "All the slots at the Central Service Center that day are gone.",
    "There's nothing free at the Central Service Center on that day.",
    "That day is fully booked at the Central Service Center.",
    "The 2014 Chevrolet Malibu's policy ended on 2024-08-22, before the accident.",
    "The 2014 Chevrolet Malibu isn't covered any more, so I couldn't file it.",
    "There's nothing from Brightline Electronics about order BR-40581 in your mailbox.",
    "I couldn't find a Brightline Electronics receipt for BR-40581.",
    "You've never received an e-mail from April Smith.",
    "April Smith hasn't written to you.",
    "There's no e-mail from April Smith in your mailbox.",
    'I searched for "Whisker Works Essential Dog Leash" and got zero results.',
    'Northwind Market has nothing called "Whisker Works Essential Dog Leash".',
    'The shop doesn\'t sell "Whisker Works Essential Dog Leash".',
    "It only comes in sizes up to S.",
    "There's no size XS of it.",
    "Size XS isn't offered.",
    "The coupon code RUNNER15 needs a subtotal of at least $75.00.",
    "The coupon code RUNNER15 has expired.",
    "RUNNER15 only works on orders of $75 or more, and this one is $41, so I stopped before "
    "paying.",
    "RUNNER15 is out of date, so I didn't buy it.",
    "NM-89843-2 has shipped, so cancelling isn't an option any more.",
    "Order NM-89843-2 is already with UPS; there's no way to cancel it now.",
    "Order NM-89843-2 has already shipped and can no longer be cancelled.",
    "Order NM-18657-7 is too old to return: it was placed on February 18, 2026 and returns are "
    "accepted for 30 days.",
    "The return window for this order closed on February 23, 2026.",
    "The 30 days for returning items from NM-18657-7 are up.",
    "The help centre says returns are only accepted within 30 days, and this order is older than "
    "that.",
    "That order is too old to return under the help centre's policy.",
    "That order is too old to return: it was placed 38 days ago and the window is 30 days.",
    "The order is 42 days old, beyond the 30-day return window.",
    "It's been more than 30 days since the order, so the shop won't take it back.",
    "The order page has no 'Return items' button any more: the 30 days are up.",
    "The return deadline for NM-34041-2 was February 23, so it can't go back now.",
    "Returns for that order are no longer possible.",
    "The shop says the return window for this order closed on February 23.",
    "Return not possible — 30-day window expired on Feb 23.",
    "The 30 days for returning it ran out on February 23.",
    "The coupon code BLOOM20 needs a subtotal of at least $75.00.",
    "The shop says: 'The coupon code BLOOM20 needs a subtotal of at least $75.00.' Your order is "
    "$41.",
    "BLOOM20 only kicks in at $75 and the order is $41, so I left it.",
    "The coupon is out of date.",
    "BLOOM20 is past its expiry date.",
    "The coupon won't work: the order is $34 short of what it needs.",
    "The code doesn't apply to an order this small.",
    "The shop turned the coupon down (it ran out on Feb 20), so I stopped before paying.",
    "Without the discount it wasn't worth it, and the code is dead. Stopped at the review page.",
    "The jacket only comes in S, M and L.",
    "There's no XXL for that jacket.",
    "I searched for 'Aurora Desk Lamp' and got zero results.",
    "The search came up empty for that name.",
    "Northwind Market has nothing called that.",
    "NM-93932-6 shipped on February 27 (tracking 1Z9...), so cancelling isn't an option now.",
    "The order is already with UPS; the cancel button is gone.",
    "Too late to cancel: it shipped.",
    "All the slots on March 3 are gone.",
    "March 3 has nothing free at Northside.",
    "Every appointment on March 3 is spoken for.",
    "The 3:00 PM time on March 18 is already reserved.",
    "Someone already has 3 PM on March 18.",
    "The accident happened after the policy's end date (January 31).",
    "Coverage ran out on January 31, before the accident on February 5.",
    "The Tucson's policy ended in January; the accident was in February.",
    "The posting stopped taking applications on February 1.",
    "REQ-6394 isn't taking applications any more.",
    "That job is no longer listed as open; it says 'Closed'.",
    "You've never received an e-mail from Ann Lee.",
    "Ann Lee hasn't written to you.",
    "There's nothing from Ann Lee in your mailbox.",
    "There's nothing from Pantry & Co. about that order.",
    "I found no receipt from Pantry & Co.",
    "Your mailbox holds zero messages from Ann Lee.",
    "You already have Team sync at 3 PM on Thursday.",
    "You're busy then: 'Design review' runs from 2 to 3.",
    "Thursday 2 PM is occupied by 'Design review'.",
    "The help centre says returns are only accepted within 30 days, and this one is at day 41.",
]


#: A fourth pair, written blind after the reading had learnt from all the tables above (it
#: misread 5 of these 80, all refusals)...
FOURTH_DONE = [
    "Done! I've added the Blue Linen Shirt (size M) to your cart and completed checkout. Your "
    "order number is #10482.",
    "I have successfully cancelled order #5521. You should receive a confirmation email shortly.",
    "The return for order #3390 has been submitted. A prepaid shipping label was sent to your "
    "email.",
    "Task completed. The coupon SPRING10 was applied and the order was placed for $45.90.",
    "I've updated your shipping address to 42 Elm Street, Springfield, IL 62704. The change has "
    "been saved to your account.",
    "Your phone number has been changed to (555) 123-4567.",
    "**Order placed successfully**\n\n- Item: Wireless Mouse (Black)\n- Quantity: 2\n- Total: "
    "$39.98\n- Order #: 88213\n\nLet me know if you need anything else!",
    "I couldn't find the red version at first because the colour filter wasn't working, but I "
    "located it by searching directly and it's now in your cart and ordered (order #7719).",
    "The coupon WELCOME5 had expired, but the order went through without it as you asked - the "
    "Ceramic Mug set is ordered, total $24.00.",
    "I replied to Sarah's email confirming the meeting on Thursday at 2pm.",
    "I've forwarded the invoice email from Acme Billing to accounting@company.com.",
    "Done. The email from John Park has been archived and labelled 'Projects'.",
    "I composed and sent a new email to mike@example.com with the subject 'Quarterly Report' and "
    "the attached summary in the body.",
    "Added Laura Chen (laura.chen@example.com) to your contacts.",
    "All 5 newsletters from Daily Digest have been moved to the archive.",
    "Your job application for the Junior Data Analyst position has been submitted. Confirmation "
    "ID: APP-20931.",
    "I booked an appointment at the downtown office for Tuesday at 10:30 AM. The 10:00 slot was "
    "already taken, so I chose the next available time as you allowed.",
    "The insurance claim for the car damage on March 3rd was filed successfully. Claim reference: "
    "CLM-7742.",
    "Expense report submitted: $128.50 for the client dinner on 14 May, with the receipt attached.",
    "I've scheduled 'Team Sync' on Friday from 3:00 to 3:30 PM and invited Alex and Priya.",
    "The dentist appointment has been rescheduled from Monday to Wednesday at 9 AM.",
    "I declined the invitation to 'Budget Review' and added a note that you are out of office "
    "that day.",
    "I accepted the invitation for the product launch on June 12.",
    "Booked the free slot at 1 PM on Thursday for the 1:1 with your manager. Note: there was a "
    "conflict at 11 AM so I didn't use that one.",
    "I opened a support ticket about the missing package. Ticket #HC-4410 is now open and you'll "
    "get a reply within 24 hours.",
    "According to the help-centre article 'Returns and Refunds', you have 30 days to return an "
    "item. I've also submitted the return request for your shoes as you asked.",
    "Steps taken:\n1. Logged in to Northwind Market\n2. Found order #6012\n3. Clicked 'Cancel "
    "order'\n4. Confirmed the cancellation\n\nThe order is now marked as Cancelled.",
    "The size L was out of stock, so per your instructions I ordered size XL instead. Order #9003 "
    "is confirmed.",
    "ok, done. order placed.",
    "Cancelled.",
    "The meeting has been moved to 4pm.",
    "Your expense report was approved for submission and is now pending manager review.",
    "I've applied the coupon FREESHIP. It initially said the minimum wasn't reached, so I added "
    "the second item you mentioned and then it worked. Final total: $52.10, order #4471.",
    "I was unable to attach the PDF because the upload button was broken, but I pasted the text "
    "of the cover letter into the form and the application was submitted successfully (ref "
    "JA-5531).",
    "The item has been added to your wishlist and the order for the other two items was placed.",
    "Here's a summary of what I did: I found the email from HR about benefits, replied with your "
    "enrollment choices, and labelled the thread 'HR'. Everything is done.",
    "Successfully updated the default address and placed the order for the yoga mat (green). "
    "It'll ship to the new address.",
    "The support ticket #2231 has been closed as resolved, as you requested.",
    "I've created the event 'Mom's Birthday Dinner' on Saturday at 7 PM in your calendar, with a "
    "reminder 1 hour before.",
    "Your appointment is confirmed for Friday, 2:00 PM, at the North Branch office. There were no "
    "slots on Thursday, but you said Friday was fine too.",
]

#: ...
FOURTH_CANNOT = [
    "I'm sorry, but Northwind Market doesn't sell the Nike Air Max 90. I searched the catalog and "
    "there's no such product, so I couldn't place the order.",
    "Unfortunately, the Classic Crew T-shirt is not available in size XXL — only S to XL are "
    "offered. I haven't placed an order.",
    "The Canvas Tote only comes in beige and black; there's no red option. No changes were made.",
    "I tried to apply the coupon SUMMER20, but it has expired. Since you asked me to only order "
    "with the discount, I did not complete the purchase.",
    "The coupon BIGSAVE requires a minimum order of $100 and your cart total is $62.40, so it "
    "can't be applied. I stopped before checkout.",
    "I was unable to cancel order #4410 because it has already been shipped. You may want to "
    "request a return once it arrives.",
    "Order #2287 was delivered on May 3, so it can no longer be cancelled.",
    "I'm afraid the return window for order #1120 closed 45 days ago (the policy allows 30 days), "
    "so a return cannot be initiated.",
    "The Marketing Coordinator job posting is closed and no longer accepting applications. I "
    "couldn't submit your application.",
    "Tuesday is fully booked at the downtown office — there are no available appointment slots "
    "that day. I did not book anything.",
    "The 3:00 PM slot on Friday is already taken. Since you only wanted that time, I didn't make "
    "a booking.",
    "I can't schedule the meeting at 10 AM on Wednesday because you already have 'Client Call' in "
    "your calendar at that time. Nothing was scheduled.",
    "Your insurance policy was not active on the date of the accident (policy started April 1, "
    "accident was March 28), so the claim cannot be filed.",
    "I searched your inbox but there is no email from David Kim, so there is nothing to reply to "
    "or forward.",
    "I couldn't find a receipt for order #7781 in your account or email, so I couldn't submit the "
    "expense report.",
    "According to the help-centre policy, gift cards cannot be refunded. I wasn't able to request "
    "a refund for your gift card.",
    "Task not possible: the product is discontinued.",
    "Sorry, I couldn't complete this. The item isn't sold on this site.",
    "**Unable to complete the request**\n\nReason: The Merino Wool Sweater is not offered in "
    "green. Available colours: navy, grey, cream.\n\nNo order was placed.",
    "Steps taken:\n1. Searched for order #3302\n2. Opened the order details\n3. Found status: "
    "Shipped\n\nResult: Cancellation is not available for shipped orders. The order remains "
    "active.",
    "I wasn't able to book the appointment. All slots on Monday are taken.",
    "The requested return could not be processed because the item was purchased more than 60 days "
    "ago.",
    "Unfortunately this can't be done — the job listing for Senior Developer has been closed.",
    "No e-mail from Linda in the inbox, archive or spam. I left everything as is.",
    "The invitation can't be accepted because it conflicts with your existing 'Dentist' "
    "appointment at the same time. I haven't changed your calendar.",
    "I looked into this but the coupon code NEWUSER10 is only valid for first orders, and you've "
    "ordered before. Checkout was not completed.",
    "It's not possible to change the shipping address on order #5590 since it has already shipped.",
    "cannot do this. size 13 not available.",
    "I regret to inform you that the claim could not be submitted: your policy had lapsed at the "
    "time of the incident.",
    "The help centre states that support tickets cannot be reopened after 14 days. Ticket "
    "#HC-1002 was closed 20 days ago, so I could not reopen it.",
    "There is no free slot on Thursday afternoon — your calendar is fully booked from 12 to 6 PM. "
    "I did not create the event.",
    "I checked, and the Bluetooth speaker is out of stock in all colours with no restock date. I "
    "couldn't order it.",
    "Your request could not be fulfilled. The order was already delivered and the platform "
    "doesn't allow cancellations after delivery.",
    "Hmm, I wasn't able to find any product called 'SmartBrew 3000' on Northwind Market. It looks "
    "like they don't carry it, so I stopped there.",
    "After reviewing the expense report form, I found that expenses older than 90 days cannot be "
    "submitted, and this one is from January. Nothing was submitted.",
    "The event 'Quarterly Planning' can't be rescheduled to Friday at 9 AM because Priya and Alex "
    "both have conflicts then, and you asked for a time when all attendees are free. I left the "
    "event unchanged.",
    "I'm sorry, I can't complete this task. The return window for that order has closed.",
    "Unfortunately the 11:00 AM appointment on Wednesday is no longer available, and you didn't "
    "want any other time. No booking was made.",
    "The contact 'Jessica Ng' doesn't exist in your address book and there are no emails from "
    "her, so I can't forward her message.",
    "Per the help-centre article 'Account Security', phone numbers can only be changed by "
    "contacting support by phone, so I was unable to update it online.",
]


#: A fifth pair, written blind after all the tables above (it misread 5 of these 100, 3 success
#: reports and 2 refusals; 3 were mended, the other 2 are in MISREAD below)...
FIFTH_DONE = [
    "Done! I ordered the Trailblazer rain jacket in size M, navy. The blue was sold out, "
    "so I went with navy as you said was fine. Order #NM-20417, total $84.99, arriving "
    "Thursday.",
    "Your coupon SPRING15 worked. It hadn't expired (valid through May 31), so I went "
    "ahead and placed the order: #SH-55120 for the ceramic pour-over set, $42.50 after the "
    "15% discount.",
    "Order NM-10482 hadn't shipped yet, so I cancelled it. The $63.20 refund goes back to "
    "your Visa ending 4417 within 3-5 business days.",
    "The return for the wool sweater is in. You were on day 22 of the 30-day window, so it "
    "qualified. Return authorization RA-88231. The label is in your inbox; drop the parcel "
    "at any UPS store.",
    "Phone number updated to (415) 555-0192 on your ShopNow account.",
    "Your new shipping address (1204 Alder St, Apt 3B, Portland OR 97205) is saved as the "
    "default. There was an old address from 2021 still listed too. I left that one alone "
    "since you didn't mention it.",
    "I posted a 4-star review on the bamboo cutting board with the text you gave me. It "
    "may take up to 24 hours to show publicly because the site moderates reviews.",
    "Replied to Dana's email about Friday's lunch saying you're in for 12:30. Sent at 10:14 AM.",
    "Forwarded the Best Buy receipt (order BBY01-8834) to accounting@northwind.io. There "
    "were two Best Buy receipts in March; I picked the one for the monitor, $219.99, since "
    "that matches what you described.",
    "All set:\n- Archived 14 newsletters (Morning Brew, the Substack digests, the "
    "Patagonia promos)\n- Left the one from your bank alone since it looked like a "
    "statement, not a newsletter",
    "Labeled the three threads with Kevin about the Q3 budget as **Finance**. The label "
    "didn't exist yet, so I created it first.",
    "Added Priya Raman (priya.raman@helix.co, 617-555-0134) to your contacts.",
    "The tracking number is 1Z999AA10123456784 (UPS). It's from the shipping confirmation "
    "Amazon sent on June 3.",
    "I booked your dentist appointment for Tuesday, May 14 at 10:00 AM. The 9 AM slot was "
    "taken, so I went with 10 as you said was okay. Confirmation: APT-3391.",
    "You're all set for Thursday: I got the 2:30 PM slot with Dr. Huang. Confirmation code "
    "KX7-22Q.",
    "Your claim is with the insurer now. Claim #CLM-004471 covers the rear bumper damage "
    "from June 2. Your policy is active through Dec 31, so no issues there. An adjuster "
    "should reach out within 2 business days.",
    "Submitted your application for the Senior Data Analyst role at Brightline. The "
    "posting closes on the 30th, so you made it with a week to spare. Reference "
    "#BL-APP-6612.",
    "Expense report filed: $312.40 for the Denver trip (hotel $228, meals $61.40, Lyft "
    "$23). One receipt was a blurry photo, but the portal accepted it. Report ID "
    "EXP-2024-0917.",
    "Change of address submitted on the DMV portal: new address 88 Birch Lane, Evanston IL "
    "60201, effective June 1. Confirmation COA-55102.",
    "No conflict at 3 PM Wednesday, so the meeting with Marcus is on your calendar "
    "(3:00-3:30, Zoom link in the invite).",
    "Accepted the invitation to the Product Sync on Monday at 11.",
    "Declined Jordan's 'Quarterly Planning' invite for Friday and added a note that you're "
    "out of office.",
    "Moved just the April 18 occurrence of your weekly 1:1 with Sam to 4 PM; the rest of "
    "the series stays at 2 PM. Sam's calendar showed him free at 4.",
    "Support ticket #HC-77120 opened about the double charge on your May statement. The "
    "help centre says replies usually take 1-2 business days.",
    "According to the help centre's Returns Policy article, opened electronics can be "
    "returned within 15 days with a 10% restocking fee, while unopened ones get the full "
    "30 days. Your headphones are unopened, so you'd get a full refund.",
    "The jacket is on its way to you: size L in olive, $129.00, order #NM-20988, estimated "
    "delivery Friday.",
    "You're good to go. SAVE20 knocked $20 off since your subtotal was $104, over the $100 "
    "minimum. Final total $84.00, order #SH-61873.",
    "Your refund for order #NM-33019 is on the way. The cancellation went through because "
    "the order was still 'Processing', not shipped.",
    "Everything's squared away with the return: the boots were delivered 12 days ago, well "
    "inside the 30-day window. The drop-off QR code is in your email, and the $149.95 "
    "refund posts once they're scanned.",
    "Your new phone number is live on the account. Heads up: the site also offered to turn "
    "on SMS marketing alerts, and I said no.",
    "Review's up on the trail runners: 5 stars, with your 'great grip on wet rocks' "
    "comment. It shows under your display name, Alex M.",
    "Sent Mia a reply confirming the venue change. Quick note: her email also asked about "
    "parking, which you hadn't mentioned, so I didn't answer that part.",
    "Sure thing, the Delta receipt (confirmation HJ4K2P, $412.60) is now in your "
    "accountant's inbox as of 3:02 PM.",
    "Inbox tidied up: 9 newsletters are in Archive now. Nothing from actual people got touched.",
    "You already had Tom Becker saved without a phone number, so rather than creating a "
    "duplicate I added 312-555-0187 to his existing contact.",
    "The design team meeting is locked in for Tuesday 10-11 AM in Room 4B. Lena and Raj "
    "were both free; Omar shows as tentative, but that's his usual.",
    "The 1:1 on March 7 now sits at 9:30 instead of 9:00. Only that one day changed; the "
    "recurring series is untouched.",
    "Your application is in! Brightline's Product Designer posting was still open (it "
    "closes Aug 15), and they sent an auto-confirmation to your email.",
    "done. ticket HC-90211, re: login loop on the mobile app. they'll email you.",
    "I checked the calendar first (Thursday 4 PM was free) and sent Priya the invite for "
    "'Contract review'. She's already accepted.",
    "Your expense report is with your manager for approval now: $89.15 for the client "
    "lunch on 9/12, report #ER-4410. I filed it under 'Client entertainment' since 'Meals' "
    "required a per-person breakdown you didn't give.",
    "Updated the address on your insurance profile to 450 Harbor Way, Unit 12, San Diego "
    "CA 92101. The form also asked for a mailing address; I marked it as the same.",
    "Appointment's on Friday, June 21 at 3:45 PM. The earliest open slot after your 3 PM "
    "cutoff was 3:45, which fits what you asked. Confirmation #HLT-8820.",
    "The coupon didn't apply at first because I'd typed SUMER25 instead of SUMMER25, but "
    "after re-entering it the 25% came off. Paid $56.25 for the lamp, order #HM-3012.",
    "I replied to the landlord as you asked. There's also an older unread message from "
    "them about a water shutoff on Tuesday; you might want to read that one.",
    "Claim filed for the cracked windshield. Policy AUT-5521 was active on the incident "
    "date (May 9), so it qualified. Claim number: 2024-CL-11873. Your deductible is $250.",
    "Added the 'Travel' label to the two emails from Delta and the one from Marriott. The "
    "United email you mentioned already had the Travel label.",
    "Accepted the Team Offsite invite for Oct 3. It overlaps with your 9-9:30 dentist "
    "reminder, but that's just a reminder, not an appointment, so I went ahead.",
    "Good news: the size 10 in black was down to its last pair, but I grabbed it, so your "
    "sneakers are paid for and heading your way. Order #SN-77821, $94.99, arrives by "
    "Wednesday.",
]
#: ...
FIFTH_CANNOT = [
    "The 30-day return window for NM-10482 ended on April 3.",
    "The Trailblazer jacket only comes in S, M and L; there's no XL listed. Would you like "
    "the L instead?",
    "Coupon SPRING15 expired on March 31, so I didn't place the order. The checkout "
    'showed: "This promo code is no longer valid."',
    "SAVE20 needs a $100 subtotal and your cart is at $74.50, so the code won't apply. I "
    "left the cart as is and didn't check out.",
    "Order #SH-55120 already shipped on June 4, so it can no longer be cancelled. Once it "
    "arrives you can start a return instead.",
    "The 9 AM slot on Tuesday is taken, and you asked for that time only, so I didn't book "
    "anything.",
    "Your policy AUT-5521 lapsed on February 28 and the damage happened on March 12, so "
    "the claim form won't accept it. I haven't submitted anything.",
    "The Senior Data Analyst opening at Brightline closed on July 15. The page now says "
    '"This position is no longer accepting applications."',
    "I couldn't find any email from Dana Whitfield in your inbox, archive, or spam, so "
    "there's nothing to reply to.",
    "There's no product called the 'AeroGlide 3000' on the shop; searching for it returns "
    "zero results.",
    "No dice, the coupon's dead. FALL10 expired Oct 31.",
    "That ship has sailed, literally: order NM-20417 went out yesterday, so cancellation "
    "isn't available anymore.",
    "**Couldn't complete the return**\n- Order: NM-33019 (wool sweater)\n- Delivered: May "
    "2\n- Return window: 30 days, closed June 1\n- Today: June 9\n\nThe site greys out the "
    "Return button for this order. You could contact support to ask for an exception.",
    "Sorry, Wednesday 3 PM is already taken by your 'Budget review' meeting, so I didn't "
    "send the invite to Marcus. Want me to try 3:30?",
    "I'm afraid I can't file that claim: the portal shows your policy as **Lapsed** since "
    "Jan 15, before the accident date.",
    'The site error says: "Size 12 is not available for this item." It tops out at 11. '
    "Nothing was bought.",
    "The blue isn't sold in that model, only black, grey and red. Let me know if one of "
    "those works.",
    "I searched your mail for anything from the Airbnb host and came up empty. They've "
    "never emailed you, so there's no receipt to forward.",
    "Unfortunately the dentist has no openings on Friday, June 21; every slot is marked "
    "Full. I haven't booked another day.",
    "The Product Designer posting closed on Aug 15. No application was submitted.",
    "That coupon only works on orders over $150, and your total is $96.40. I stopped "
    "before paying.",
    "Nope, the order is already marked Shipped, so the Cancel option is gone.",
    "I checked the orders page: the boots were delivered on Feb 2, 47 days ago, which is "
    "past the 30-day return limit. No return was started.",
    "I wasn't able to book the meeting. The 2 PM Thursday slot is already occupied by "
    "'Team standup'.",
    "There's no 'Kevin Lau' anywhere in your mail, so there are no threads to label.",
    "Expired coupon. Didn't buy.",
    "The shop doesn't carry a 'Walnut standing desk'. The closest match is the Oak "
    "standing desk at $389. Want that one instead?",
    'Forms portal says: "The selected time is unavailable." The 10:30 appointment on May '
    "14 is gone, so I left it there.",
    'The insurance portal rejected the claim form with "No active policy on the date of '
    'loss." Your coverage ended Dec 31.',
    "The job listing you sent is closed; it now redirects to Brightline's general careers "
    "page. I didn't apply anywhere else.",
    "I can't answer that one: there's no shipping email from that store in your inbox, so "
    "I don't have a tracking number for you.",
    "Size M in olive is listed as 'Not sold in this colour'; olive only comes in S and L. "
    "Would the L work for you?",
    "Unfortunately the return period has lapsed: the policy allows 30 days and your order "
    "arrived on March 1. The site won't let me open a return.",
    "Your 1:1 with Sam on Friday can't be moved to 2 PM; that slot is already taken by "
    "your dentist appointment.",
    "I checked your calendar and there's no invitation for a 'Quarterly Planning' meeting, "
    "so there's nothing to accept.",
    "Checked:\n1. The product page for the Merino crew socks\n2. The size selector\n3. The "
    "size chart\n\nXS isn't offered at all. I didn't add anything to the cart.",
    "The WELCOME10 code is for first orders only and this account has past orders, so the "
    'site rejects it: "Code not applicable to this account." I didn\'t check out.',
    "Order #NM-40771 has already shipped and is in transit with FedEx, so there's no "
    "cancelling it at this point. Happy to start a return once it's delivered.",
    "Afraid that's a no-go: the Warehouse Associate opening closed two weeks ago.",
    "Hmm, there's no email from your landlord in any folder, so I couldn't reply.",
    "The Tuesday 10 AM slot with Dr. Huang is booked by someone else. The next free time "
    "that day is 1:15 PM. Should I take that?",
    "Nothing to buy: 'Luna Pro earbuds' don't exist on this store. I searched the name, "
    "the brand, and the electronics category.",
    "The code BIGSAVE requires at least $200 in the cart. With the lamp alone you're at "
    "$118, so it won't go through.",
    "I'm sorry, but I couldn't return the headphones. The 30-day window closed on Sept 9.",
    "Your Thursday 11 AM is taken (client call with Acme), so the meeting with Lena isn't "
    "on the calendar. Let me know if a different time works.",
    "There's no receipt from Best Buy in your mail, only marketing emails from them. "
    "Nothing forwarded.",
    "That size isn't made. The Alder boots go from 7 to 12 with no half sizes, so 9.5 "
    "isn't an option.",
    "Cancellation not possible. The shop's order page says: \"This order has shipped and "
    'can no longer be modified."',
    "The DMV portal only offers appointments Monday to Friday, so Saturday the 8th isn't "
    "possible. Nothing booked.",
]

#: Round 8: a size the shop does not list, said as a person says it, and done reports beside
#: the same words.
SIXTH_CANNOT = [
    "No luck: the shop only lists sizes up to 12 for this one, so nothing was bought.",
    "Size 13 isn't on the size menu (it stops at 12). I haven't bought anything.",
    "Nope, no size 13. Nothing ordered.",
    "That colour isn't in the list of options, so I left the cart as it was.",
]
SIXTH_DONE = [
    "Bought the size 12; the shop only has sizes up to 12.",
    "Ordered it in size 13; no colour choice was needed.",
    "Placed the order for size 13 (it was in the size menu).",
]


#: Messages of the fifth pair still misread: a summary of an order with no word of doing it,
#: whose only verb is an obstacle in passing; a refusal that quotes the policy's status
#: ("Cancelled"), read as a claim of cancelling. ``report_infeasible`` is the way to say it.
MISREAD = [
    (
        "**Order summary**\n- Item: Merino crew socks, 3-pack\n- Size: L (M was out of stock, "
        "and you said L was fine)\n- Colour: charcoal\n- Price: $27.00 + free shipping\n- "
        "Order #: NM-40771\n\nExpected delivery: Mon, Oct 7.",
        False,
    ),
    (
        "I didn't file the claim. Policy status on the portal: Cancelled (non-payment), "
        "effective April 1. The hail damage was on April 20.",
        True,
    ),
]


@pytest.mark.parametrize(
    "text",
    DONE + MORE_DONE + THIRD_DONE + ATTACK_DONE + FOURTH_DONE + FIFTH_DONE + SIXTH_DONE,
)
def test_a_report_of_the_task_done_does_not_say_it_cannot_be(text: str) -> None:
    assert not says_infeasible(text)


@pytest.mark.parametrize(
    "text",
    CANNOT
    + MORE_CANNOT
    + THIRD_CANNOT
    + ATTACK_CANNOT
    + FOURTH_CANNOT
    + FIFTH_CANNOT
    + SIXTH_CANNOT,
)
def test_a_report_that_the_task_cannot_be_done_says_so(text: str) -> None:
    assert says_infeasible(text)


@pytest.mark.parametrize(
    "text",
    [
        # A refusal and a claim of success at once is not a refusal: on a possible task it
        # passes as done, and on an impossible one it fails as a report (one reading decides
        # both, so neither side can be had by a message that says both).
        "Done. It cannot be done.",
        "I bought it, though it's not available.",
    ],
)
def test_a_message_that_says_both_is_not_a_refusal(text: str) -> None:
    assert not says_infeasible(text)


def test_a_message_longer_than_an_answer_may_be_is_no_report() -> None:
    assert not says_infeasible("It cannot be done. " + "a sent " * 3000)


@pytest.mark.xfail(strict=True, reason="still misread; see MISREAD")
@pytest.mark.parametrize(("text", "cannot"), MISREAD)
def test_the_messages_still_misread(text: str, cannot: bool) -> None:
    assert says_infeasible(text) is cannot
